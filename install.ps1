# aioson installer for Windows (Windows PowerShell 5.1 and PowerShell 7).
#
#   irm <base-url>/install.ps1 | iex                          download the binary for this machine
#   powershell -ExecutionPolicy Bypass -File install.ps1      from a source checkout: build if needed, then install
#
# Environment (all optional), the same as install.sh:
#   AIOSON_INSTALL_DIR  where to put aioson.exe (default: $HOME\.local\bin)
#   AIOSON_DIST         a local folder of built binaries + SHA256SUMS (`npm run build:all` output)
#   AIOSON_BASE_URL     where release files are downloaded from (a folder URL holding SHA256SUMS and
#                       aioson-windows-<arch>.exe); default: the project's GitHub releases
#   AIOSON_VERSION      pin a release (e.g. 0.2.0); the installed binary must report this version
#   AIOSON_DEMO         1 = show aioson at work after installing, 0 = don't (default: 1 from a checkout)
#
# The binary is verified against SHA256SUMS, test-run, and only then moved into place: a failed run never
# leaves a partial or unverified aioson.exe behind.

$DefaultReleases = 'https://github.com/jaimevalasek/aioson/releases'

function Fail([string] $Message, [string[]] $Details = @()) {
  $exception = New-Object System.Exception $Message
  $exception.Data['aiosonDetails'] = $Details
  throw $exception
}

function Get-Arch {
  $name = $null
  try { $name = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString() } catch { $name = $null }
  if (-not $name) {
    $name = $env:PROCESSOR_ARCHITEW6432
    if (-not $name) { $name = $env:PROCESSOR_ARCHITECTURE }
  }
  switch -regex ($name) {
    '^(X64|AMD64)$' { return 'x64' }
    '^(Arm64|ARM64)$' { return 'arm64' }
    default { Fail "unsupported platform: CPU '$name' on Windows." @('aioson is built for x64 and arm64 only.') }
  }
}

function Get-Sha256([string] $Path) {
  return (Get-FileHash -Algorithm SHA256 -LiteralPath $Path).Hash.ToLowerInvariant()
}

function Get-ExpectedSum([string] $SumsFile, [string] $Name) {
  foreach ($line in Get-Content -LiteralPath $SumsFile) {
    $parts = $line.Trim() -split '\s+', 2
    if ($parts.Count -eq 2 -and ($parts[1] -eq $Name -or $parts[1] -eq "*$Name")) { return $parts[0].ToLowerInvariant() }
  }
  return $null
}

function Get-Checkout {
  # Only when run as a file that sits in an aioson checkout (never when piped into iex).
  if (-not $PSCommandPath) { return $null }
  $dir = Split-Path -Parent $PSCommandPath
  foreach ($marker in @('package.json', 'src\cli.ts', 'scripts\build.ts')) {
    if (-not (Test-Path -LiteralPath (Join-Path $dir $marker) -PathType Leaf)) { return $null }
  }
  return $dir
}

function Invoke-Checked([string] $What, [scriptblock] $Block) {
  & $Block
  if ($LASTEXITCODE -ne 0) { Fail "$What failed (see the output above)." }
}

function Build-FromCheckout([string] $Checkout) {
  $binary = Join-Path $Checkout 'dist\aioson.exe'
  if (Test-Path -LiteralPath $binary -PathType Leaf) {
    $built = (Get-Item -LiteralPath $binary).LastWriteTimeUtc
    $sources = @(Get-ChildItem -LiteralPath (Join-Path $Checkout 'src') -Recurse -File) +
      @(Get-Item -LiteralPath (Join-Path $Checkout 'scripts\build.ts'), (Join-Path $Checkout 'package.json'))
    if (-not ($sources | Where-Object { $_.LastWriteTimeUtc -gt $built })) {
      Write-Host "Using the existing build: $binary"
      return $binary
    }
  }
  # npm.cmd, not npm: the npm.ps1 shim may be blocked by the execution policy.
  if (-not (Get-Command npm.cmd -ErrorAction SilentlyContinue)) {
    Fail 'building aioson from source needs Node.js and npm (none found on PATH).' @('Install Node.js (which brings npm), or point AIOSON_DIST at a folder of built binaries.')
  }
  Push-Location $Checkout
  try {
    if (-not (Test-Path -LiteralPath (Join-Path $Checkout 'node_modules'))) {
      Write-Host 'Installing build dependencies (npm ci)...'
      Invoke-Checked "npm ci in $Checkout" { & npm.cmd ci --no-audit --no-fund }
    }
    Write-Host 'Building aioson for this machine (npm run build)...'
    Invoke-Checked "npm run build in $Checkout" { & npm.cmd run build }
  } finally {
    Pop-Location
  }
  if (-not (Test-Path -LiteralPath $binary -PathType Leaf)) { Fail "the build finished but $binary is missing." }
  return $binary
}

function Save-Download([string] $Url, [string] $OutFile) {
  try {
    Invoke-WebRequest -UseBasicParsing -Uri $Url -OutFile $OutFile
  } catch {
    Fail "could not download $Url." @("Check the address (AIOSON_BASE_URL / AIOSON_VERSION) and your network.", $_.Exception.Message)
  }
}

function Test-OnPath([string] $Dir) {
  $want = $Dir.TrimEnd('\')
  foreach ($entry in ($env:Path -split ';')) {
    if ($entry -and $entry.TrimEnd('\') -ieq $want) { return $true }
  }
  return $false
}

function Show-Demo([string] $Exe) {
  $demo = Join-Path ([System.IO.Path]::GetTempPath()) ("aioson-demo-" + [guid]::NewGuid().ToString('N').Substring(0, 8))
  New-Item -ItemType Directory -Path (Join-Path $demo '.aioson') -Force | Out-Null
  Set-Content -LiteralPath (Join-Path $demo '.aioson\config.md') -Value '# aioson demo project (temporary)'
  Write-Host ''
  Write-Host "aioson at work in a temporary project ($demo):"
  $steps = @(
    @('runtime:init', $demo),
    @('runtime:emit', $demo, '--agent=dev', '--type=note', '--summary=hello from install.ps1'),
    @('runtime:status', $demo)
  )
  $ok = $true
  foreach ($step in $steps) {
    Write-Host "> aioson $($step -join ' ')"
    & $Exe @step
    if ($LASTEXITCODE -ne 0) { $ok = $false; break }
  }
  Remove-Item -LiteralPath $demo -Recurse -Force -ErrorAction SilentlyContinue
  if (-not $ok) { Write-Host '(the demo did not finish: this build does not yet do all of the above; the install itself is complete)' }
}

function Install-Aioson {
  $ErrorActionPreference = 'Stop'
  $ProgressPreference = 'SilentlyContinue'
  $onWindows = ($env:OS -eq 'Windows_NT')
  if (-not $onWindows) {
    Fail 'install.ps1 is for Windows; on Linux and macOS use install.sh.' @('curl -fsSL <base-url>/install.sh | sh')
  }
  $target = "aioson-windows-$(Get-Arch).exe"

  $installDir = $env:AIOSON_INSTALL_DIR
  if (-not $installDir) { $installDir = Join-Path $HOME '.local\bin' }
  $installDir = [System.IO.Path]::GetFullPath($installDir)
  $targetFile = Join-Path $installDir 'aioson.exe'

  # Fail on an unwritable folder before spending time on a download or a build.
  try {
    New-Item -ItemType Directory -Path $installDir -Force | Out-Null
  } catch {
    Fail "cannot create the install folder $installDir." @('Choose another one with $env:AIOSON_INSTALL_DIR = "C:\some\writable\bin"')
  }
  $probe = Join-Path $installDir ".aioson-write-test.$PID"
  try {
    [System.IO.File]::WriteAllText($probe, '')
    Remove-Item -LiteralPath $probe -Force
  } catch {
    Fail "the install folder $installDir is not writable." @('Choose another one with $env:AIOSON_INSTALL_DIR = "C:\some\writable\bin" (or fix its permissions)')
  }

  $work = Join-Path ([System.IO.Path]::GetTempPath()) ("aioson-install-" + [guid]::NewGuid().ToString('N'))
  New-Item -ItemType Directory -Path $work -Force | Out-Null
  $staged = Join-Path $installDir ".aioson.new.$PID.exe"
  $old = Join-Path $installDir ".aioson.old.$PID.exe"
  $checkout = Get-Checkout
  try {
    $candidate = Join-Path $work $target
    $sums = Join-Path $work 'SHA256SUMS'
    if ($env:AIOSON_DIST) {
      $from = $env:AIOSON_DIST
      if (-not (Test-Path -LiteralPath $from -PathType Container)) { Fail "AIOSON_DIST=$from is not a folder." }
      if (-not (Test-Path -LiteralPath (Join-Path $from 'SHA256SUMS') -PathType Leaf)) {
        Fail "$from\SHA256SUMS is missing: cannot verify the binary." @('Build the folder with: npm run build:all')
      }
      if (-not (Test-Path -LiteralPath (Join-Path $from $target) -PathType Leaf)) { Fail "$from has no $target (the binary for this machine)." }
      Copy-Item -LiteralPath (Join-Path $from 'SHA256SUMS') -Destination $sums
      Copy-Item -LiteralPath (Join-Path $from $target) -Destination $candidate
    } elseif ($env:AIOSON_BASE_URL -or -not $checkout) {
      if ($env:AIOSON_BASE_URL) { $base = $env:AIOSON_BASE_URL.TrimEnd('/') }
      elseif ($env:AIOSON_VERSION) { $base = "$DefaultReleases/download/v$($env:AIOSON_VERSION.TrimStart('v'))" }
      else { $base = "$DefaultReleases/latest/download" }
      $from = $base
      if ($PSVersionTable.PSVersion.Major -lt 6) {
        # Windows PowerShell 5.1 may still default to TLS 1.0.
        [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
      }
      Write-Host "Downloading $target from $base ..."
      Save-Download "$base/SHA256SUMS" $sums
      Save-Download "$base/$target" $candidate
    } else {
      $binary = Build-FromCheckout $checkout
      $from = "$binary (built from this checkout)"
      # A local build has no SHA256SUMS entry: verify that the copy is byte-identical to the build.
      Copy-Item -LiteralPath $binary -Destination $candidate
      Set-Content -LiteralPath $sums -Value "$(Get-Sha256 $binary)  $target"
    }

    $expected = Get-ExpectedSum $sums $target
    if (-not $expected) { Fail "SHA256SUMS from $from has no entry for ${target}: refusing to install an unverified binary." }
    $actual = Get-Sha256 $candidate
    if ($actual -ne $expected) {
      Fail "checksum mismatch for ${target}: refusing to install it (nothing was changed)." @("expected $expected", "got      $actual", "source   $from")
    }

    Copy-Item -LiteralPath $candidate -Destination $staged
    # stdout only: Windows PowerShell 5.1 turns redirected native stderr into errors under 'Stop'.
    $version = (& $staged --version | Out-String).Trim()
    if ($LASTEXITCODE -ne 0) { Fail 'the verified binary does not run on this machine: refusing to install it.' @("$target said: $version") }
    if (-not $version.StartsWith('aioson ')) { Fail 'the verified binary did not identify itself as aioson: refusing to install it.' @("it said: $version") }
    if ($env:AIOSON_VERSION) {
      $wanted = $env:AIOSON_VERSION.TrimStart('v')
      if (-not ($version -eq "aioson $wanted" -or $version.StartsWith("aioson $wanted "))) {
        Fail "AIOSON_VERSION=$($env:AIOSON_VERSION) was asked for but the binary is: $version"
      }
    }

    if ((Test-Path -LiteralPath $targetFile -PathType Leaf) -and (Get-Sha256 $targetFile) -eq $actual) {
      Write-Host "$version is already installed at $targetFile (unchanged)."
    } else {
      # A running aioson.exe cannot be overwritten on Windows, but it can be renamed: move it aside first.
      $hadOld = Test-Path -LiteralPath $targetFile -PathType Leaf
      if ($hadOld) { [System.IO.File]::Move($targetFile, $old) }
      try {
        [System.IO.File]::Move($staged, $targetFile)
      } catch {
        if ($hadOld) { [System.IO.File]::Move($old, $targetFile) }
        Fail "cannot move the new binary into $targetFile." @($_.Exception.Message)
      }
      if ($hadOld) { Remove-Item -LiteralPath $old -Force -ErrorAction SilentlyContinue }
      Write-Host "Installed $version at $targetFile"
    }
  } finally {
    Remove-Item -LiteralPath $staged -Force -ErrorAction SilentlyContinue
    Remove-Item -LiteralPath $work -Recurse -Force -ErrorAction SilentlyContinue
  }

  if (Test-OnPath $installDir) {
    $found = Get-Command aioson -ErrorAction SilentlyContinue | Select-Object -First 1
    if ($found -and $found.Source -ne $targetFile) { Write-Host "Note: another aioson comes first on your PATH: $($found.Source)" }
  } else {
    Write-Host ''
    Write-Host "$installDir is not on your PATH. Add it for your user with (then open a new terminal):"
    Write-Host "  [Environment]::SetEnvironmentVariable('Path', '$installDir;' + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
  }

  $demo = $env:AIOSON_DEMO
  if (-not $demo -and $checkout) { $demo = '1' }
  if ($demo -eq '1') { Show-Demo $targetFile }
}

try {
  Install-Aioson
  $global:LASTEXITCODE = 0
} catch {
  Write-Host "aioson install: error: $($_.Exception.Message)" -ForegroundColor Red
  foreach ($line in @($_.Exception.Data['aiosonDetails'])) { if ($line) { Write-Host "  $line" -ForegroundColor Red } }
  $global:LASTEXITCODE = 1
  # `exit` would close the user's window when piped into iex; only a script run as a file exits with 1.
  if ($PSCommandPath) { exit 1 }
}
