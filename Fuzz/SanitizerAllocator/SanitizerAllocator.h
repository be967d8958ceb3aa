// Shipped with the toolchain's clang; the declarations only, the runtime comes with -sanitize=address.
#include <sanitizer/allocator_interface.h>
