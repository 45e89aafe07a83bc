#include "engine/io/write_result.h"

#include <cerrno>

#include "engine/base/exit_codes.h"

namespace muh {

int ExitCodeFor(const WriteResult& r) {
  if (r.ok()) return kExitClean;
  if (r.state == WriteState::kTorn) return kExitWriteFailed;
  switch (r.cause) {
    case FailureCause::kBadInput:
    case FailureCause::kConflict:
      return kExitBadInput;
    case FailureCause::kNone:
    case FailureCause::kResource:
    case FailureCause::kInternal:
      break;
  }
  return kExitInternal;
}

FailureCause CauseOfErrno(int e) {
  switch (e) {
    case EACCES:
    case EPERM:
    case EROFS:
    case EBUSY:
    case ETXTBSY:
    case EXDEV:
    case EMLINK:
    case ENAMETOOLONG:
    case ENOENT:
    case ENOTDIR:
    case EISDIR:
    case ELOOP:
    case EEXIST:
    case EFBIG:
      return FailureCause::kBadInput;
    default:
      return FailureCause::kResource;
  }
}

}  // namespace muh
