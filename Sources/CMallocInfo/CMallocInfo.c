#include "CMallocInfo.h"
