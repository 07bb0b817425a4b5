/*
 * Runs a hook handler the way Windows harnesses do: CreateProcess of `cmd.exe /d /s /c "<handler>"`, the payload
 * written to the child's stdin (then closed). Usage: launch.exe <handler-file> <payload-file> <working-dir>
 * Reading the handler from a file keeps its quotes and metacharacters away from any argv re-quoting.
 * Prints "exit=<code>" and exits with the child's exit code.
 */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: launch.exe <handler-file> <payload-file> <working-dir>\n"); return 92; }
  DWORD handlerSize, payloadSize;
  char *handler = slurp(argv[1], &handlerSize);
  while (handlerSize > 0 && (handler[handlerSize - 1] == '\n' || handler[handlerSize - 1] == '\r')) handler[--handlerSize] = 0;
  char *payload = slurp(argv[2], &payloadSize);

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

  size_t lineSize = handlerSize + 64;
  char *line = malloc(lineSize);
  snprintf(line, lineSize, "cmd.exe /d /s /c \"%s\"", handler);
  PROCESS_INFORMATION pi;
  if (!CreateProcessA(NULL, line, NULL, NULL, TRUE, 0, NULL, argv[3], &si, &pi)) {
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
