/*
 * bcryptprimitives.dll for Wine 8, which lacks it.
 *
 * Go 1.22 and later draw their random numbers on Windows from
 * bcryptprimitives.dll's ProcessPrng, a DLL every Windows 10 and later ships.
 * Wine 8 has none, so a Go program dies at start with "bcryptprimitives.dll
 * not found". This DLL gives it the one function it loads, filled from the
 * RtlGenRandom that advapi32 exports as SystemFunction036 (Wine's is backed by
 * the host's random source). It is built only for the tests under Wine
 * (make test-windows) and is never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

/* ProcessPrng fills data with size random bytes; like Windows' own it always
 * succeeds, so it returns TRUE (a failure of the source aborts the process
 * rather than returning predictable bytes). */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
    while (size > 0) {
        ULONG chunk = size > 0x40000000 ? 0x40000000 : (ULONG)size;
        if (!SystemFunction036(data, chunk))
            ExitProcess(0xC0000001); /* STATUS_UNSUCCESSFUL */
        data += chunk;
        size -= chunk;
    }
    return TRUE;
}
