// A process started from Python code (`subprocess.run(...)`, `os.system`,
// `os.execv`, ...): whether the child may be a Python interpreter, which
// may run any module of the tree. Read from the call's argument text.
#pragma once

#include <string>
#include <string_view>

namespace muh {

// The calls that start a process, by module: `subprocess.run`, or `run`
// imported from subprocess.
struct ProcessLauncher {
  const char* module;
  const char* fn;
};

// Every launcher muhpatch knows; `size` is set to their number.
const ProcessLauncher* ProcessLaunchers(std::size_t* size);

struct ChildProcess {
  enum class Kind {
    kNotPython,      // a literal command whose program is no interpreter
    kModule,         // `python -m literal`: `module` runs as __main__
    kSysExecutable,  // names sys.executable: ScanChildInterpreters reads it
    kOpaque,         // a command not written out, a shell line, a launcher
  };
  Kind kind = Kind::kOpaque;
  std::string module;
  std::string why;  // for kOpaque: what is not read
};

// The child that `fn(args)` starts; `args` is the text between the call's
// parentheses. Closed world: only a command written out as string
// literals, whose program is neither Python, a shell nor a launcher of
// other programs (env, sudo, torchrun, ...), and that names no `.py`
// file, starts no Python; a shell line with an operator, a variable or a
// relative program path is opaque.
ChildProcess ClassifyLaunch(std::string_view fn, std::string_view args);

}  // namespace muh
