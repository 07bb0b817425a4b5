/*
 * Stand-in for Windows' bcryptprimitives.dll, which Debian's Wine 8 lacks and Bun's Windows executable imports
 * (ProcessPrng). Only for running the Windows build under Wine in CI; real Windows has the genuine DLL.
 */
#include <windows.h>

/* RtlGenRandom, exported by advapi32 under this name. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
