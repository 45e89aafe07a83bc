// Colour on a terminal: whether to use it (--color, NO_COLOR, isatty), and
// how a unified diff's lines and a diagnostic's severity word are coloured.
// Never colours output that goes to a pipe or a file unless asked to
// (--color=always). The decision is made once, in the CLI, and consulted
// where the diff and diagnostics are printed.
#pragma once

#include <string>
#include <string_view>

namespace muh {

enum class ColourMode { kAuto, kAlways, kNever };

// "auto", "always" or "never"; false for anything else.
bool ParseColourMode(std::string_view word, ColourMode* out);

// Whether a stream gets colour: always/never as said; auto when it is a
// terminal, NO_COLOR is unset or empty (no-color.org) and TERM is not "dumb".
// `no_color` and `term` may be null (unset). Pure.
bool WantColour(ColourMode mode, bool is_terminal, const char* no_color, const char* term);

// Decides for stdout and stderr from `mode`, the descriptors and the
// environment, and remembers it for the two functions below.
void SetColourMode(ColourMode mode);
bool ColourStdout();
bool ColourStderr();

// `diff` with git's colours: headers bold, `@@` lines cyan, `-` lines red,
// `+` lines green; context, preamble and `\ No newline` lines as they are.
// A line's "\r\n" or "\n" stays outside the colour. Pure.
std::string ColourUnifiedDiff(std::string_view diff);

// A diagnostic line `LOCATION: SEVERITY: message` with the location bold and
// the severity word coloured as compilers do (error red, warning magenta,
// note cyan). A line of another shape comes back unchanged. Pure.
std::string ColourDiagnosticLine(std::string_view line);

}  // namespace muh
