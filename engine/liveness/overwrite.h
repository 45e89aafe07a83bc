// Writes that no read can see: a local variable (or one key of a local
// dict) assigned and then, on every path of its function, assigned again
// (or left behind by a return or raise) before anything reads it. Lexical,
// over the logical lines of the function (statement_table.h): a loop or `with`/
// `try` block that mentions the variable counts as a read, and any mention
// other than a plain reassignment is a read, so a doubt always keeps the
// write live. A line of several statements (`;`, a one-line `if c: return
// v`) that mentions it reads; leaving a try block or handler, the later
// handlers and `finally` count; no verdict when the site's line holds more
// statements, or the function has a nested def, class or lambda mentioning
// the variable (a closure), or reads its locals whole (kWholeLocalsWords),
// or any file reads a frame's locals whole (FrameLocalsRead).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/liveness/tree_index.h"

namespace muh {

// What a site writes: `var = <site>`, `var = {'key': <site>}` or
// `var['key'] = <site>`.
struct WriteSite {
  std::string var;
  std::string key;  // empty when the whole variable is written
  int line = 0;     // logical line index
};

// The write holding byte `offset` of the file, if its line is one.
std::optional<WriteSite> WriteSiteAt(const StatementTable& lines, std::size_t offset);

struct OverwriteResult {
  bool dead = false;
  std::string why;
  std::vector<Evidence> evidence;  // the overwriting lines
};

OverwriteResult Overwritten(TreeIndex* index, const std::string& path, const WriteSite& site);

// The words by which a function reads its own locals as a whole: locals(),
// vars() (with no argument), eval and exec (which may call either),
// breakpoint(), and its frame (sys._getframe(), inspect.currentframe()).
inline constexpr const char* kWholeLocalsWords[] = {
    "locals", "vars", "eval", "exec", "breakpoint", "_getframe", "currentframe"};

// The words by which code reads some frame's locals as a whole: the
// frame's `f_locals`, `inspect.getargvalues(frame)` (its locals, besides
// its arguments), and traceback's `capture_locals=True` (StackSummary,
// TracebackException: every frame's locals as text). A helper probe of
// e2916b3 logged a caller's config dict by the last two.
inline constexpr const char* kFrameLocalsWords[] = {"f_locals", "getargvalues", "capture_locals"};

// The first statement, in a file `counts` admits, that reads some frame's
// locals as a whole: a word of kFrameLocalsWords, but `f_locals`
// subscripted with one literal name (`frame.f_locals["self"]` reads one
// local). A tracer or a helper may read its caller's that way. nullopt when
// none does.
std::optional<Evidence> FrameLocalsRead(TreeIndex* index,
                                        const std::function<bool(const std::string&)>& counts);

}  // namespace muh
