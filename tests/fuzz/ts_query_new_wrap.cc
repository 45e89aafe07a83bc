// Stands between muhcore and libtree-sitter's ts_query_new in the fuzzers
// that compile queries (linked with -Wl,--wrap=ts_query_new, see
// fuzz.cmake). libtree-sitter is Debian's shared library, built without
// AddressSanitizer, so its memory errors go unseen or show up much later
// somewhere else. This wrapper handles two known bugs of 0.20.7 that the
// sanitizers would get wrong (tests/fuzz/crashes/README.md has both):
//
// 1. A heap overflow the sanitizers cannot see. A field name in front of a
//    predicate (`key: (#eq? @k "x")`, also spelt `(.eq? ...)` or `(eq? ...)`,
//    or a group of predicates such as `key: ((#eq? @k "x"))`) makes ts_query__parse_pattern set the
//    field on the step after the last one, since a predicate adds no step: a 2-byte write past the
//    end of the query's step array whenever the array is full (8, 16, 32 ... steps so far), into
//    unused capacity otherwise. Left alone it surfaces minutes later as an AddressSanitizer CHECK
//    failure in free() with no trace of the query. Query::Compile has to refuse such a query before
//    libtree-sitter sees it; if one gets here, this wrapper aborts with a
//    message naming it, so the fuzzer reports the input that did it.
//
// 2. A leak of no consequence: the capture list of a field-prefixed pattern
//    whose field the grammar lacks (`i:_@e`), lost on the TSQueryErrorField
//    return. muhpatch exits after a load error, but LeakSanitizer would stop
//    every fuzzing run within seconds. A query that may name an unknown field
//    is compiled once with LeakSanitizer off; if that fails with
//    TSQueryErrorField its result stands, otherwise it is thrown away and the
//    query compiled again with LeakSanitizer on, so every other leak is still
//    reported. Other queries are compiled once, normally (ts_query_new is the
//    fuzzers' most expensive call).
//
// Anything else ts_query_new does (a crash, a hang) the fuzzers see as
// muhpatch would.
#include <tree_sitter/api.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define MUH_FUZZ_HAVE_LSAN 1
#endif
#endif

#ifdef MUH_FUZZ_HAVE_LSAN
#include <sanitizer/lsan_interface.h>
#endif

extern "C" TSQuery* __real_ts_query_new(const TSLanguage* language, const char* source,
                                        uint32_t source_len, uint32_t* error_offset,
                                        TSQueryError* error_type);

namespace {

// tree-sitter's identifier characters (stream_scan_identifier).
bool IdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == '?' || c == '!';
}

// Skips blanks and `;` comments from `i`, as stream_skip_whitespace does.
uint32_t SkipBlanks(const char* s, uint32_t n, uint32_t i) {
  for (;;) {
    while (i < n && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i < n && s[i] == ';') {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    return i;
  }
}

// Calls `fn(name_begin, name_end, after_colon)` for every `NAME:` outside
// strings and comments; stops early when it returns true.
template <typename Fn>
bool AnyField(const char* s, uint32_t n, Fn fn) {
  uint32_t i = 0;
  while (i < n) {
    char c = s[i];
    if (c == '"') {
      for (++i; i < n && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      ++i;
    } else if (c == ';') {
      while (i < n && s[i] != '\n') ++i;
    } else if (c == '@') {  // a capture name is no field name
      ++i;
      while (i < n && IdentChar(s[i])) ++i;
    } else if (IdentChar(c)) {
      uint32_t start = i;
      while (i < n && IdentChar(s[i])) ++i;
      uint32_t end = i;
      uint32_t j = SkipBlanks(s, n, i);
      if (j < n && s[j] == ':' && fn(start, end, SkipBlanks(s, n, j + 1))) return true;
    } else {
      ++i;
    }
  }
  return false;
}

// Whether a predicate starts at `k`, just after a `(`. libtree-sitter 0.20.7
// takes three spellings: `(#eq? ...)`, `(.eq? ...)` and `(eq? ...)` (a bare
// name ending in `?` or `!`).
bool PredicateAt(const char* s, uint32_t n, uint32_t k) {
  if (k < n && (s[k] == '#' || s[k] == '.')) return k + 1 < n && IdentChar(s[k + 1]);
  uint32_t end = k;
  while (end < n && IdentChar(s[end])) ++end;
  return end > k && (s[end - 1] == '?' || s[end - 1] == '!');
}

// Bug 1: offset of a known field name in front of a predicate, or of a
// group that starts with one (`key: ((#eq? @k "x"))`), or -1. (Conservative:
// `key: ((#eq? @k "x") (string))` is harmless but also reported.)
int64_t FieldOnPredicate(const TSLanguage* language, const char* s, uint32_t n) {
  int64_t at = -1;
  AnyField(s, n, [&](uint32_t begin, uint32_t end, uint32_t after) {
    uint32_t k = after;
    bool paren = false;
    while (k < n && s[k] == '(') {
      paren = true;
      k = SkipBlanks(s, n, k + 1);
    }
    if (paren && PredicateAt(s, n, k) &&
        ts_language_field_id_for_name(language, s + begin, end - begin) != 0) {
      at = begin;
    }
    return at >= 0;
  });
  return at;
}

#ifdef MUH_FUZZ_HAVE_LSAN
// Bug 2: whether some `NAME:` names no field of the grammar.
bool MayHaveUnknownField(const TSLanguage* language, const char* s, uint32_t n) {
  return AnyField(s, n, [&](uint32_t begin, uint32_t end, uint32_t) {
    return ts_language_field_id_for_name(language, s + begin, end - begin) == 0;
  });
}
#endif

}  // namespace

extern "C" TSQuery* __wrap_ts_query_new(const TSLanguage* language, const char* source,
                                        uint32_t source_len, uint32_t* error_offset,
                                        TSQueryError* error_type) {
  if (int64_t at = FieldOnPredicate(language, source, source_len); at >= 0) {
    std::fprintf(stderr,
                 "ts_query_new called with a field name in front of a predicate (query offset "
                 "%lld); libtree-sitter 0.20.7 then writes past its step array. Query::Compile "
                 "must refuse this query. See tests/fuzz/crashes/README.md.\n",
                 static_cast<long long>(at));
    std::abort();
  }
#ifdef MUH_FUZZ_HAVE_LSAN
  if (MayHaveUnknownField(language, source, source_len)) {
    TSQuery* probe = nullptr;
    {
      __lsan::ScopedDisabler no_leak_checks;
      probe = __real_ts_query_new(language, source, source_len, error_offset, error_type);
    }
    if (probe == nullptr && *error_type == TSQueryErrorField) return nullptr;
    ts_query_delete(probe);
  }
#endif
  return __real_ts_query_new(language, source, source_len, error_offset, error_type);
}
