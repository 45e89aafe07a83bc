// libFuzzer target: the whole CLI, in-process, over files on disk.
//
// The input is RULES '\0' ARGS '\0' FILE ('\0' FILE)*: a rule file, an
// argument line and up to six files, each `PATH '\n' BYTES`. A PATH starting
// with '@' is written beside the rule file (for --patch and --hw), any other
// into the tree `t/`; PATH keeps only [A-Za-z0-9_./-] and loses `..` and
// leading '/'. ARGS' first byte picks diff, verify or status; the rest is
// split at blanks into at most eight extra arguments (absolute paths and
// `..` dropped, so nothing outside the scratch directory is read). Each run
// writes these into a scratch directory (under /dev/shm when there is one),
// runs muh::RunCli there as `muhpatch CMD rules.yaml t ARGS...` and checks:
//   - it returns, with an exit code of the table (exit_codes.h: 0 to 6);
//   - `diff` exiting 0 printed nothing or a patch ParsePatch reads back.
// Run with -rss_limit_mb (.ci/sanitize: 2048) so that runaway memory is a
// finding too.
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/app/cli.h"
#include "engine/patch/patch_apply.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  for (;;) {
    std::size_t end = s.find(sep, at);
    parts.emplace_back(s.substr(at, end == std::string_view::npos ? end : end - at));
    if (end == std::string_view::npos) return parts;
    at = end + 1;
  }
}

std::string CleanPath(std::string_view raw) {
  std::string p;
  for (char c : raw) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' ||
        c == '-') {
      p += c;
    }
  }
  while (p.find("..") != std::string::npos) p.erase(p.find(".."), 2);
  while (!p.empty() && p.front() == '/') p.erase(0, 1);
  while (!p.empty() && p.back() == '/') p.pop_back();
  while (p.find("//") != std::string::npos) p.erase(p.find("//"), 1);
  return p.size() > 100 ? p.substr(0, 100) : p;
}

void WriteFile(const fs::path& path, std::string_view bytes) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (fs::is_directory(path, ec)) return;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

const fs::path& Scratch() {
  static const fs::path dir = [] {
    std::string base = fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path();
    std::string tmpl = base + "/muhpatch-fuzz_cli-XXXXXX";
    FUZZ_CHECK(::mkdtemp(tmpl.data()) != nullptr, "mkdtemp " + tmpl);
    return fs::path(tmpl);
  }();
  return dir;
}

std::string Slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return -1;
  const fs::path& dir = Scratch();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) fs::remove_all(entry.path(), ec);
  std::vector<std::string> parts =
      Split(std::string_view(reinterpret_cast<const char*>(data), size), '\0');
  WriteFile(dir / "rules.yaml", parts[0]);
  fs::create_directories(dir / "t", ec);
  for (std::size_t i = 2; i < parts.size() && i < 8; ++i) {
    std::size_t nl = parts[i].find('\n');
    if (nl == std::string::npos) continue;
    bool beside = !parts[i].empty() && parts[i][0] == '@';
    std::string rel = CleanPath(std::string_view(parts[i]).substr(beside ? 1 : 0, nl));
    if (rel.empty() || rel == "." || rel.rfind("./", 0) == 0) continue;
    WriteFile(beside ? dir / rel : dir / "t" / rel, std::string_view(parts[i]).substr(nl + 1));
  }

  static const char* const kCommands[] = {"diff", "verify", "status"};
  std::string args = parts.size() > 1 ? parts[1] : "";
  const char* cmd = kCommands[args.empty() ? 0 : static_cast<unsigned char>(args[0]) % 3];
  std::vector<std::string> argv_s = {"muhpatch", cmd, "rules.yaml", "t"};
  if (!args.empty()) {
    for (std::string& tok : Split(std::string_view(args).substr(1), ' ')) {
      if (tok.empty() || tok[0] == '/' || tok.find("..") != std::string::npos) continue;
      if (tok.find('\n') != std::string::npos) continue;
      if (argv_s.size() >= 12) break;
      argv_s.push_back(tok);
    }
  }
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  // RunCli closes descriptor 1 when done (FinishStdout): give it a file.
  static const int saved_stdout = ::dup(1);
  const fs::path out_path = dir / ".stdout";
  int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  FUZZ_CHECK(out >= 0, "open " + out_path.string());
  ::dup2(out, 1);
  ::close(out);
  // Relative arguments name files in the scratch directory; libFuzzer's own
  // paths (the corpus) are relative to where it was started.
  static const int start_dir = ::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  FUZZ_CHECK(::chdir(dir.c_str()) == 0, "chdir " + dir.string());
  int code = muh::RunCli(static_cast<int>(argv_s.size()), argv.data());
  FUZZ_CHECK(::fchdir(start_dir) == 0, "fchdir back");
  ::dup2(saved_stdout, 1);
  std::string printed = Slurp(out_path);

  std::string shown;
  for (const std::string& a : argv_s) shown += a + " ";
  FUZZ_CHECK(code >= 0 && code <= 6, "exit code " + std::to_string(code) + " for " + shown);
  // `diff -h` (any option spelling CLI11 takes as help: `--help`, or an
  // `h` in a cluster of short options such as `-vh` or `-hw.yaml`) prints
  // its usage, and `diff --version` the version, not a patch; both exit 0.
  bool asked_help = std::any_of(argv_s.begin(), argv_s.end(), [](const std::string& a) {
    const bool short_cluster = a.size() >= 2 && a[0] == '-' && a[1] != '-';
    return (short_cluster && a.find('h') != std::string::npos) || a == "--help" ||
           a.rfind("--help=", 0) == 0 || a.rfind("--version", 0) == 0;
  });
  if (std::string(cmd) == "diff" && code == 0 && !printed.empty() && !asked_help) {
    std::vector<muh::FilePatch> patch;
    std::vector<muh::Diagnostic> errors;
    std::vector<std::string> preamble;
    FUZZ_CHECK(muh::ParsePatch("stdout", printed, &patch, &errors, &preamble),
               "diff exited 0 but its stdout is no patch: " +
                   (errors.empty() ? "" : errors[0].Format()) + "\n" + muh_fuzz::Show(printed));
  }
  return 0;
}
