/*
 * What a hostile repository plants at its root for the Wine smoke test (copied there as aioson.exe, aioson.com,
 * cmd.exe, cmd.com): it does nothing but leave "<its own file name>.ran" in %AIOSON_MARKER_DIR%, so a test can tell
 * that something started it instead of the real program.
 */
#include <windows.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  char self[MAX_PATH], dir[MAX_PATH], marker[2 * MAX_PATH];
  if (!GetModuleFileNameA(NULL, self, MAX_PATH)) return 2;
  if (!GetEnvironmentVariableA("AIOSON_MARKER_DIR", dir, MAX_PATH)) return 3;
  const char *name = strrchr(self, '\\');
  snprintf(marker, sizeof marker, "%s\\%s.ran", dir, name ? name + 1 : self);
  FILE *f = fopen(marker, "wb");
  if (!f) return 4;
  fputs("ran\n", f);
  fclose(f);
  return 0;
}
