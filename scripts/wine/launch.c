/*
 * Runs a hook handler the way a Windows harness starts it, with the payload written to the child's stdin (then
 * closed). Usage: launch.exe <mode> <handler-file> <payload-file> <working-dir>
 *   cmd       CreateProcess of `%ComSpec% /d /s /c "<handler>"` (VS Code's spawn with {shell: true}: Copilot's `windows`)
 *   direct    CreateProcess of the handler text itself as the command line (what PowerShell hands to CreateProcess
 *             for `<program> --% <rest>`: the program and the rest, verbatim; the smoke builds that line)
 *   rust-cmd  CreateProcess of `<system dir>\cmd.exe /c <handler>` with the handler quoted by Rust std's rules for one
 *             argument (Codex's cmd.exe fallback: `Command::new("cmd.exe").args(["/c", handler])`, which Rust finds in
 *             the system directory before PATH and never in the current folder): wrapped in quotes when it
 *             holds a space, tab or nothing; a `"` becomes `\"` (n backslashes before it become 2n+1); trailing
 *             backslashes doubled
 * Reading the handler from a file keeps its quotes and metacharacters away from any argv re-quoting.
 * Prints "exit=<code>" and exits with the child's exit code.
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, DWORD *size) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", path); exit(90); }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buffer = malloc(n + 1);
  if (fread(buffer, 1, n, f) != (size_t)n) { fprintf(stderr, "cannot read %s\n", path); exit(91); }
  buffer[n] = 0;
  fclose(f);
  *size = (DWORD)n;
  return buffer;
}

/* Rust std (library/std/src/sys/args/windows.rs `append_arg`, Quote::Auto) for one argument; `out` holds 2n+3. */
static void rust_quote(const char *arg, char *out) {
  int quote = strchr(arg, ' ') != NULL || strchr(arg, '\t') != NULL || *arg == 0;
  char *o = out;
  int backslashes = 0;
  if (quote) *o++ = '"';
  for (const char *p = arg; *p; p++) {
    if (*p == '\\') backslashes++;
    else {
      if (*p == '"') for (int i = 0; i <= backslashes; i++) *o++ = '\\';
      backslashes = 0;
    }
    *o++ = *p;
  }
  if (quote) {
    for (int i = 0; i < backslashes; i++) *o++ = '\\';
    *o++ = '"';
  }
  *o = 0;
}

int main(int argc, char **argv) {
  if (argc != 5) { fprintf(stderr, "usage: launch.exe <cmd|direct|rust-cmd> <handler-file> <payload-file> <working-dir>\n"); return 92; }
  const char *mode = argv[1];
  DWORD handlerSize, payloadSize;
  char *handler = slurp(argv[2], &handlerSize);
  while (handlerSize > 0 && (handler[handlerSize - 1] == '\n' || handler[handlerSize - 1] == '\r')) handler[--handlerSize] = 0;
  char *payload = slurp(argv[3], &payloadSize);

  SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
  HANDLE readEnd, writeEnd;
  if (!CreatePipe(&readEnd, &writeEnd, &sa, 0)) return 93;
  SetHandleInformation(writeEnd, HANDLE_FLAG_INHERIT, 0);

  STARTUPINFOA si;
  ZeroMemory(&si, sizeof(si));
  si.cb = sizeof(si);
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = readEnd;
  si.hStdOutput = GetStdHandle(STD_OUTPUT_HANDLE);
  si.hStdError = GetStdHandle(STD_ERROR_HANDLE);

  /* The shells by absolute path, as the harnesses start them: a project folder is never where cmd.exe comes from. */
  char comspec[MAX_PATH], system_cmd[MAX_PATH];
  if (!GetEnvironmentVariableA("ComSpec", comspec, MAX_PATH)) return 96;
  if (!GetSystemDirectoryA(system_cmd, MAX_PATH - 9)) return 97;
  strcat(system_cmd, "\\cmd.exe");
  size_t lineSize = 3 * (size_t)handlerSize + 2 * MAX_PATH + 64;
  char *line = malloc(lineSize);
  if (strcmp(mode, "cmd") == 0) snprintf(line, lineSize, "\"%s\" /d /s /c \"%s\"", comspec, handler);
  else if (strcmp(mode, "direct") == 0) snprintf(line, lineSize, "%s", handler);
  else if (strcmp(mode, "rust-cmd") == 0) {
    char *quoted = malloc(2 * (size_t)handlerSize + 3);
    rust_quote(handler, quoted);
    snprintf(line, lineSize, "%s /c %s", system_cmd, quoted);
  } else { fprintf(stderr, "unknown mode %s\n", mode); return 95; }
  PROCESS_INFORMATION pi;
  if (!CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, argv[4], &si, &pi)) {
    fprintf(stderr, "CreateProcess failed: %lu\n", GetLastError());
    return 94;
  }
  CloseHandle(readEnd);
  DWORD written = 0, offset = 0;
  while (offset < payloadSize && WriteFile(writeEnd, payload + offset, payloadSize - offset, &written, NULL)) offset += written;
  CloseHandle(writeEnd);
  WaitForSingleObject(pi.hProcess, 60000);
  DWORD code = 255;
  GetExitCodeProcess(pi.hProcess, &code);
  printf("exit=%lu\n", code);
  return (int)code;
}
