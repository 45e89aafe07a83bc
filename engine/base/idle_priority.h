// Work that should only use a core nobody else wants: the calling thread
// gets the lowest scheduling priority (nice 19), which Linux sets per
// thread. It cannot be raised again without privilege, so call it first
// thing in a thread of its own, never on a thread that goes on to other
// work.
#pragma once

namespace muh {

// False when the system refused (the thread then runs as before).
bool LowerThisThreadToIdlePriority();

}  // namespace muh
