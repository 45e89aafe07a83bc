#include "engine/liveness/process_launch.h"

#include <doctest/doctest.h>

namespace muh {
namespace {

using Kind = ChildProcess::Kind;

Kind Of(std::string_view fn, std::string_view args) { return ClassifyLaunch(fn, args).kind; }

TEST_CASE("a command written out whose program is no interpreter starts no Python") {
  CHECK(Of("check_output", R"(["/sbin/ldconfig", "-p"])") == Kind::kNotPython);
  CHECK(Of("run", R"(["nvidia-smi", "-L"], capture_output=True, check=True)") == Kind::kNotPython);
  CHECK(Of("system", R"("nvidia-smi -L")") == Kind::kNotPython);
  CHECK(Of("Popen", R"(args=("ixsmi",), stdout=subprocess.PIPE)") == Kind::kNotPython);
  CHECK(Of("execv", R"("/usr/bin/ls", ["ls", "-l"])") == Kind::kNotPython);
  CHECK(Of("spawnl", R"(os.P_WAIT, "/bin/true", "true")") == Kind::kNotPython);
  CHECK(Of("create_subprocess_exec", R"("ixsmi", "-q")") == Kind::kNotPython);
}

TEST_CASE("python -m a literal module is that module run") {
  ChildProcess c = ClassifyLaunch("run", R"(["python3", "-m", "vllm.other"])");
  CHECK(c.kind == Kind::kModule);
  CHECK(c.module == "vllm.other");
  CHECK(Of("system", R"("python -m vllm.other")") == Kind::kModule);
  CHECK(Of("execvp", R"("python", ["python", "-m", "app.k"])") == Kind::kModule);
  CHECK(Of("run", "[sys.executable, '-m', 'app.k']") == Kind::kSysExecutable);
}

TEST_CASE("anything not read as a command written out may start Python") {
  const char* opaque[][2] = {
      {"run", "cmd"},           // built elsewhere
      {"run", "[prog, '-q']"},  // a name in the list
      {"run", "shlex.split(line)"},
      {"run", R"(["ls"], executable=exe)"},         // the program replaced
      {"run", R"("ls; python -m x", shell=True)"},  // a shell line with operators
      {"run", R"(["bash", "-c", "echo"])"},         // a shell
      {"run", R"(["env", "X=1", "ls"])"},           // a launcher
      {"run", R"(["torchrun", "bench"])"},
      {"run", R"(["./tools/bench", "-q"])"},           // a relative program
      {"run", R"(["/usr/bin/python3", "app/k.py"])"},  // Python on a file
      {"run", R"(["/opt/x/bin/tool", "run.py"])"},     // names a .py file
      {"run", R"(*argv)"},
      {"system", R"("echo $X")"},
      {"system", R"(f"python -m {name}")"},
      {"spawnv", R"(os.P_WAIT, path, args)"},
      {"posix_spawn", R"("/bin/ls", ["ls"], os.environ)"},  // env not read
      {"run", ""},
  };
  for (const auto& c : opaque) {
    ChildProcess child = ClassifyLaunch(c[0], c[1]);
    CHECK_MESSAGE(child.kind == Kind::kOpaque, c[0], "(", c[1], ")");
    CHECK_MESSAGE(!child.why.empty(), c[1]);
  }
}

}  // namespace
}  // namespace muh
