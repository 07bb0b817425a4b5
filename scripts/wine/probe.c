/*
 * A stand-in `aioson.exe` for the Wine smoke test: copies its stdin byte for byte into %AIOSON_PROBE_OUT%, its
 * arguments (argv[1..], one per line) into %AIOSON_PROBE_OUT%.argv and whether NoDefaultCurrentDirectoryInExePath is
 * in its environment into %AIOSON_PROBE_OUT%.env ("set" or "unset") — proves what a handler really receives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <io.h>

int main(int argc, char **argv) {
  const char *path = getenv("AIOSON_PROBE_OUT");
  if (!path) return 2;
  _setmode(_fileno(stdin), _O_BINARY);
  FILE *out = fopen(path, "wb");
  if (!out) return 3;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, stdin)) > 0) fwrite(buffer, 1, n, out);
  fclose(out);
  char argvPath[4096];
  snprintf(argvPath, sizeof argvPath, "%s.argv", path);
  FILE *args = fopen(argvPath, "wb");
  if (!args) return 4;
  for (int i = 1; i < argc; i++) fprintf(args, "%s\n", argv[i]);
  fclose(args);
  char envPath[4096];
  snprintf(envPath, sizeof envPath, "%s.env", path);
  FILE *env = fopen(envPath, "wb");
  if (!env) return 5;
  fputs(getenv("NoDefaultCurrentDirectoryInExePath") ? "set" : "unset", env);
  fclose(env);
  return 0;
}
