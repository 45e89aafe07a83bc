#include "engine/app/next_command.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("ShellWord quotes only what a shell would read otherwise") {
  CHECK(ShellWord("rules/bi100.yaml") == "rules/bi100.yaml");
  CHECK(ShellWord("smem_per_block=65536") == "smem_per_block=65536");
  CHECK(ShellWord("my tree") == "'my tree'");
  CHECK(ShellWord("it's") == "'it'\\''s'");
  CHECK(ShellWord("") == "''");
  CHECK(ShellWord("a$b") == "'a$b'");
}

TEST_CASE("the next commands carry the options that change what the rules write") {
  CommandOptions opts;
  opts.inputs.rules_path = "rules.yaml";
  opts.tree_path = "the tree";
  opts.patch_path = "p.diff";
  // -o, not a shell's `>`: the file is kept when the rules fail.
  CHECK(RefreshPatchCommand(opts) == "muhpatch diff -o p.diff rules.yaml 'the tree'");
  opts.inputs.hw_path = "card.yaml";
  opts.inputs.sets = {"smem_per_block=65536", "warp_size=64"};
  opts.inputs.only_rules = {"r1"};
  opts.include_dead = true;
  opts.format = "json";  // how verify reports is not the patch's business
  CHECK(CommandLine(opts, "apply") ==
        "muhpatch apply rules.yaml 'the tree' --hw card.yaml --set smem_per_block=65536 --set "
        "warp_size=64 --rule r1 --include-dead");
}

TEST_CASE("on a tree that carries its patch, the refresh makes it again from the pre-image") {
  CommandOptions opts;
  opts.inputs.rules_path = "rules.yaml";
  opts.tree_path = "tree";
  opts.patch_path = "my p.diff";
  opts.inputs.sets = {"warp_size=64"};
  CHECK(BasePatchCommand(opts) ==
        "muhpatch diff --base-patch 'my p.diff' -o 'my p.diff' rules.yaml tree --set warp_size=64");
  CHECK(RefreshCommand(opts, true) == BasePatchCommand(opts));
  CHECK(RefreshCommand(opts, false) == RefreshPatchCommand(opts));
}

TEST_CASE("a path that starts with '-' is spelt so that it reads as a path") {
  CommandOptions opts;
  opts.inputs.rules_path = "-rules.yaml";
  opts.tree_path = "-dash";
  opts.patch_path = "-p.diff";
  CHECK(RefreshPatchCommand(opts) == "muhpatch diff -o ./-p.diff ./-rules.yaml ./-dash");
  CHECK(BasePatchCommand(opts) ==
        "muhpatch diff --base-patch ./-p.diff -o ./-p.diff ./-rules.yaml ./-dash");
  opts.tree_path = "/abs/-x";
  CHECK(CommandLine(opts, "apply") == "muhpatch apply ./-rules.yaml /abs/-x");
}

}  // namespace muh
