#include "engine/app/cli_extras.h"

#include <iostream>
#include <vector>

#include "engine/base/edit_distance.h"
#include "engine/base/exit_codes.h"

namespace muh {

namespace {

// Every spelling of `app`'s own options: "--patch", "-v".
void OptionNames(const CLI::App& app, std::vector<std::string>* out) {
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) out->push_back("--" + l);
    for (const std::string& s : o->get_snames()) out->push_back("-" + s);
  }
}

}  // namespace

void AddGlobalOptions(CLI::App* app, GlobalOptions* out) {
  app->add_flag("-q,--quiet", out->quiet,
                "no notes or information on stderr (errors, warnings and a failing verdict "
                "still print)");
  app->add_option_function<std::string>(
         "--color", [out](const std::string& word) { ParseColourMode(word, &out->colour); },
         "colour the diff and diagnostics: auto (on a terminal, unless NO_COLOR is set), "
         "always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app->set_version_flag("-V,--version", std::string("muhpatch ") + MUHPATCH_VERSION,
                        "print the version and exit");
}

CLI::App* AddHelpCommand(CLI::App* app, GlobalOptions* out) {
  CLI::App* help = app->add_subcommand("help", "print this help, or a command's: help COMMAND");
  help->add_option("COMMAND", out->help_topic, "the command to describe");
  return help;
}

int PrintHelp(const CLI::App& app, const std::string& topic) {
  // App::help() would describe the parsed subcommand, `help` itself.
  auto format = app.get_formatter();
  if (topic.empty()) {
    std::cout << format->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
    return kExitClean;
  }
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() == topic) {
      std::cout << format->make_help(sub, app.get_name() + " " + topic, CLI::AppFormatMode::Normal);
      return kExitClean;
    }
    names.push_back(sub->get_name());
  }
  std::cerr << "muhpatch: error: unknown command '" << topic << "'" << DidYouMean(topic, names)
            << "\n";
  return kExitBadInput;
}

std::string ExplainExtras(const CLI::App& app, const CLI::ExtrasError& e) {
  std::vector<std::string> names;
  OptionNames(app, &names);
  for (const CLI::App* sub : app.get_subcommands()) OptionNames(*sub, &names);
  for (const std::string& arg : app.remaining(true)) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    std::string option = arg.substr(0, arg.find('='));
    std::string hint = DidYouMean(option, names);
    if (!hint.empty()) return "unknown option '" + option + "'" + hint;
  }
  return e.what();
}

}  // namespace muh
