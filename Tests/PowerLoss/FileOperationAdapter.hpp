// Reports the core's own file operations (the by-name first open's copy and
// publish, FileOperationObserver.hpp) to the fault VFS's model, so that a
// cut or a fault can land between any two of them.
#pragma once

namespace powerloss {

/// Installs the adapter as the core's file operation observer (for the
/// life of the process).
void observeOwnFileOperations();

}  // namespace powerloss
