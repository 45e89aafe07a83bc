#include "engine/io/git_tracked.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>

extern char** environ;

namespace muh {

namespace {

// Closes the descriptors it holds when it goes.
struct Fds {
  int fds[3] = {-1, -1, -1};
  ~Fds() {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
};

std::vector<std::string> SplitNul(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\0', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) out.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

GitTracked FindGitTracked(const std::string& root) {
  GitTracked result;
  Fds fds;  // [0] read end, [1] write end, [2] /dev/null
  if (::pipe2(fds.fds, O_CLOEXEC) != 0) {
    result.why = "no pipe to run git";
    return result;
  }
  fds.fds[2] = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds.fds[1], 1);
  if (fds.fds[2] >= 0) {
    posix_spawn_file_actions_adddup2(&actions, fds.fds[2], 0);
    posix_spawn_file_actions_adddup2(&actions, fds.fds[2], 2);
  }
  std::string c = "-C";
  std::string git = "git";
  std::string ls = "ls-files";
  std::string z = "-z";
  std::string cached = "--cached";
  std::string dir = root;
  char* argv[] = {git.data(), c.data(), dir.data(), ls.data(), z.data(), cached.data(), nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "git", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    result.why = spawned == ENOENT ? "git is not on PATH" : "git could not be started";
    return result;
  }
  ::close(fds.fds[1]);
  fds.fds[1] = -1;
  std::string out;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fds.fds[0], buffer, sizeof buffer);
    if (n > 0) {
      out.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    // 127: the shell-less exec failed in the child (no git after all).
    const bool missing = WIFEXITED(status) && WEXITSTATUS(status) == 127;
    result.state = missing ? GitTracked::Case::kNoGit : GitTracked::Case::kNotWorkTree;
    result.why = missing ? "git is not on PATH"
                         : "the tree is not in a git work tree (git ls-files failed there)";
    return result;
  }
  result.state = GitTracked::Case::kTracked;
  result.paths = SplitNul(out);
  std::sort(result.paths.begin(), result.paths.end());
  return result;
}

}  // namespace muh
