#include "engine/liveness/process_launch.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "engine/base/text.h"
#include "engine/liveness/py_imports.h"

namespace muh {

namespace {

constexpr ProcessLauncher kLaunchers[] = {{"subprocess", "run"},
                                          {"subprocess", "call"},
                                          {"subprocess", "check_call"},
                                          {"subprocess", "check_output"},
                                          {"subprocess", "Popen"},
                                          {"subprocess", "getoutput"},
                                          {"subprocess", "getstatusoutput"},
                                          {"os", "system"},
                                          {"os", "popen"},
                                          {"os", "execl"},
                                          {"os", "execle"},
                                          {"os", "execlp"},
                                          {"os", "execlpe"},
                                          {"os", "execv"},
                                          {"os", "execve"},
                                          {"os", "execvp"},
                                          {"os", "execvpe"},
                                          {"os", "spawnl"},
                                          {"os", "spawnle"},
                                          {"os", "spawnlp"},
                                          {"os", "spawnlpe"},
                                          {"os", "spawnv"},
                                          {"os", "spawnve"},
                                          {"os", "spawnvp"},
                                          {"os", "spawnvpe"},
                                          {"os", "posix_spawn"},
                                          {"os", "posix_spawnp"},
                                          {"asyncio", "create_subprocess_exec"},
                                          {"asyncio", "create_subprocess_shell"},
                                          {"pty", "spawn"}};

// Calls whose command is one line for the shell.
bool TakesShellLine(std::string_view fn) {
  return fn == "system" || fn == "popen" || fn == "getoutput" || fn == "getstatusoutput" ||
         fn == "create_subprocess_shell";
}

// The subprocess calls: one command (a list, or a string) and keywords.
bool TakesOneCommand(std::string_view fn) {
  return fn == "run" || fn == "call" || fn == "check_call" || fn == "check_output" ||
         fn == "Popen" || fn == "spawn";
}

// `name=value` at depth 0: the keyword's name, else empty.
std::string_view KeywordName(std::string_view arg) {
  std::size_t i = 0;
  while (i < arg.size() && IsWordChar(arg[i])) ++i;
  if (i == 0 || i >= arg.size()) return {};
  std::size_t j = i;
  while (j < arg.size() && arg[j] == ' ') ++j;
  if (j < arg.size() && arg[j] == '=' && (j + 1 >= arg.size() || arg[j + 1] != '=')) {
    return arg.substr(0, i);
  }
  return {};
}

// The words of a literal command: a string literal, or a list or tuple of
// them; nullopt for anything else.
std::optional<std::vector<std::string>> LiteralWords(std::string_view arg) {
  if (auto one = StringLiteralValue(arg)) return std::vector<std::string>{*one};
  if (arg.size() < 2) return std::nullopt;
  char open = arg.front();
  char close = arg.back();
  if (!((open == '[' && close == ']') || (open == '(' && close == ')'))) return std::nullopt;
  std::vector<std::string> out;
  for (std::string_view item : SplitTopLevel(arg.substr(1, arg.size() - 2))) {
    std::optional<std::string> v = StringLiteralValue(item);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::vector<std::string> ShellWords(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    std::size_t e = i;
    while (e < line.size() && line[e] != ' ' && line[e] != '\t') ++e;
    if (e > i) out.push_back(line.substr(i, e - i));
    i = e;
  }
  return out;
}

bool IsPythonProgram(std::string_view base) {
  return base.rfind("python", 0) == 0 || base.rfind("pypy", 0) == 0 || base == "py";
}

// Programs that run another program or a script given to them.
bool RunsOtherPrograms(std::string_view base) {
  static constexpr std::array<std::string_view, 44> kRunners = {
      "sh",        "bash",   "dash",   "zsh",     "ksh",      "fish",    "csh",      "tcsh",
      "busybox",   "env",    "nohup",  "sudo",    "su",       "doas",    "timeout",  "time",
      "xargs",     "exec",   "nice",   "ionice",  "taskset",  "numactl", "stdbuf",   "setsid",
      "chroot",    "strace", "ltrace", "gdb",     "valgrind", "perf",    "torchrun", "accelerate",
      "deepspeed", "ray",    "mpirun", "mpiexec", "srun",     "pytest",  "pip",      "pip3",
      "uv",        "conda",  "make",   "vllm"};
  return std::find(kRunners.begin(), kRunners.end(), base) != kRunners.end();
}

ChildProcess Opaque(std::string why) {
  ChildProcess c;
  c.why = std::move(why);
  return c;
}

ChildProcess OfWords(const std::vector<std::string>& words) {
  if (words.empty()) return Opaque("an empty command");
  const std::string& program = words.front();
  std::string_view base = program;
  if (std::size_t slash = base.rfind('/'); slash != std::string_view::npos) {
    if (program.front() != '/')
      return Opaque("a program given by a relative path ('" + program + "')");
    base = base.substr(slash + 1);
  }
  if (IsPythonProgram(base)) {
    if (words.size() >= 3 && words[1] == "-m" && !words[2].empty() && words[2][0] != '.' &&
        std::all_of(words[2].begin(), words[2].end(),
                    [](char c) { return IsWordChar(c) || c == '.'; })) {
      ChildProcess c;
      c.kind = ChildProcess::Kind::kModule;
      c.module = words[2];
      return c;
    }
    return Opaque("a Python interpreter ('" + program + "') running code not named by '-m'");
  }
  if (RunsOtherPrograms(base))
    return Opaque("'" + std::string(base) + "', which runs other programs");
  for (const std::string& w : words) {
    if (w.find(".py") != std::string::npos || w.find("python") != std::string::npos) {
      return Opaque("a command naming Python ('" + w + "')");
    }
  }
  ChildProcess c;
  c.kind = ChildProcess::Kind::kNotPython;
  return c;
}

}  // namespace

const ProcessLauncher* ProcessLaunchers(std::size_t* size) {
  *size = std::size(kLaunchers);
  return kLaunchers;
}

ChildProcess ClassifyLaunch(std::string_view fn, std::string_view args) {
  if (args.find("sys.executable") != std::string_view::npos) {
    ChildProcess c;
    c.kind = ChildProcess::Kind::kSysExecutable;
    return c;
  }
  std::vector<std::string_view> parts = SplitTopLevel(args);
  std::vector<std::string_view> positional;
  std::optional<std::string_view> command;
  bool shell = TakesShellLine(fn);
  for (std::string_view p : parts) {
    std::string_view kw = KeywordName(p);
    if (kw.empty()) {
      if (!p.empty() && p.front() == '*') return Opaque("a command passed by '*' or '**'");
      positional.push_back(p);
      continue;
    }
    std::string_view value = Trim(p.substr(p.find('=') + 1));
    if (kw == "args" || kw == "cmd" || kw == "argv") command = value;
    if (kw == "executable") return Opaque("a program given by 'executable='");
    if (kw == "shell" && value != "False") shell = true;
  }
  std::vector<std::string> words;
  if (TakesShellLine(fn) || TakesOneCommand(fn)) {
    if (!command && !positional.empty()) command = positional.front();
    if (!command) return Opaque("a command not written in the call");
    std::optional<std::vector<std::string>> w = LiteralWords(*command);
    if (!w) return Opaque("a command not written out as string literals");
    words = std::move(*w);
    if (shell) {
      if (words.size() != 1) return Opaque("a shell command given as a list");
      const std::string& line = words.front();
      if (line.find_first_of(";&|$`()<>*?\n'\"\\=") != std::string::npos) {
        return Opaque("a shell line with operators or variables");
      }
      words = ShellWords(line);
    }
  } else {
    // os.exec*, os.spawn*, posix_spawn, create_subprocess_exec: the
    // program, then its arguments, as strings or lists; a spawn mode
    // (os.P_WAIT) is no part of the command.
    for (std::string_view p : positional) {
      if (p.rfind("os.P_", 0) == 0 || p.rfind("P_", 0) == 0) continue;
      std::optional<std::vector<std::string>> w = LiteralWords(p);
      if (!w) return Opaque("a command not written out as string literals");
      words.insert(words.end(), w->begin(), w->end());
    }
    // execv(path, [arg0, ...]) and the spawns: arg0 repeats the program.
    bool arg0 =
        fn.rfind("exec", 0) == 0 || fn.rfind("spawn", 0) == 0 || fn.rfind("posix_spawn", 0) == 0;
    if (arg0 && words.size() >= 2) words.erase(words.begin() + 1);
  }
  return OfWords(words);
}

}  // namespace muh
