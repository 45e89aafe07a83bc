// muhpatch entry point: parse options, run one command, return its exit code.
#include "engine/app/cli.h"

int main(int argc, char** argv) { return muh::RunCli(argc, argv); }
