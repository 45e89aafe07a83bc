// muhpatch entry point: parse options, run one command, return its exit code.
#include "engine/cli.h"

int main(int argc, char** argv) { return muh::RunCli(argc, argv); }
