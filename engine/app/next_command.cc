#include "engine/app/next_command.h"

namespace muh {

std::string ShellWord(std::string_view word) {
  bool plain = !word.empty();
  for (char c : word) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              std::string_view("_-./:=,+@%").find(c) != std::string_view::npos;
    plain = plain && ok;
  }
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string PathWord(std::string_view path) {
  // A word starting with '-' would read as an option.
  return ShellWord(!path.empty() && path[0] == '-' ? "./" + std::string(path) : std::string(path));
}

std::string CommandLine(const CommandOptions& opts, std::string_view command) {
  return CommandLineWith(opts, command, "");
}

std::string CommandLineWith(const CommandOptions& opts, std::string_view command,
                            std::string_view options) {
  std::string out = "muhpatch " + std::string(command) + std::string(options);
  auto add = [&out](std::string_view flag, const std::string& value) {
    if (!value.empty()) out += " " + std::string(flag) + " " + PathWord(value);
  };
  out += " " + PathWord(opts.inputs.rules_path) + " " + PathWord(opts.tree_path);
  add("--hw", opts.inputs.hw_path);
  add("--hf-config", opts.inputs.hf_config_path);
  add("--serve-args", opts.inputs.serve_args_path);
  for (const std::string& s : opts.inputs.sets) out += " --set " + ShellWord(s);
  for (const std::string& r : opts.inputs.only_rules) out += " --rule " + ShellWord(r);
  if (opts.include_dead) out += " --include-dead";
  return out;
}

std::string RefreshPatchCommand(const CommandOptions& opts) {
  return CommandLineWith(opts, "diff", " -o " + PathWord(opts.patch_path));
}

std::string BasePatchCommand(const CommandOptions& opts) {
  const std::string patch = PathWord(opts.patch_path);
  return CommandLineWith(opts, "diff", " --base-patch " + patch + " -o " + patch);
}

std::string RefreshCommand(const CommandOptions& opts, bool tree_carries_patch) {
  return tree_carries_patch ? BasePatchCommand(opts) : RefreshPatchCommand(opts);
}

}  // namespace muh
