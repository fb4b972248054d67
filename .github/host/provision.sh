#!/usr/bin/env bash
# Prepares a benchmark runner host, as root, from a checkout of main (docs/runner-host.md, section 4). Run it once
# after unpacking the runner, and again whenever benchmarks.json names a runtime the host does not have yet:
#   1. runtimes: every runtime a variant of the manifest needs (runtimes.sh), system-wide and root-owned, so no job
#      downloads or alters one: a JDK <v> from Adoptium's apt repository (temurin-<v>-jdk), a Node.js <v> from
#      nodejs.org's release tarball, checked against its SHASUMS256.txt, into /opt/node-v<v>. One found already (a
#      JDK under /usr/lib/jvm by its release file, a Node.js in /opt/node-v<v> or on PATH) is kept;
#   2. the job hooks: job-started.sh, job-completed.sh and runner-cleanup.sh copied to the host directory
#      (default /opt/restbench-host), root-owned, with host.conf naming the one repository this host serves;
#   3. the service user (default restbench-svc): the variant builds and the services under test run as it
#      (./bench's BENCH_SERVICE_USER), so a pull request's code can write neither its A/B record nor the checkout nor
#      the runner's processes. A system user without a login shell, its home /var/lib/<user> (0700: ./bench empties it
#      and keeps its Maven repository and build copies there); sudo, and the rule that lets the runner's user (default
#      bench, the user runner-loop.sh creates) run processes as that user and as no one else, in /etc/sudoers.d/restbench
#      (0440, checked with visudo -c first);
#   4. the runner's .env (in the runner directory, default /opt/actions-runner, which the ephemeral loop of the guide
#      copies for every job): the hooks, JAVA_HOME (the harness's JDK, the manifest's default runtime), JAVA_HOME_<v>_X64
#      and NODE<v>_HOME for every runtime (the runner finds them there first), PATH with them, RESTBENCH_SERVICE_USER.
# --plan prints what it would do and the .env it would write, and changes nothing (no root needed); the workflow
# tests run it.
#
# usage: provision.sh --repository owner/name [--runner-dir DIR] [--host-dir DIR] [--runner-user NAME]
#                     [--service-user NAME] [--sudoers FILE] [--plan]
set -euo pipefail
here=$(dirname "$(realpath "$0")")
root=$(cd "$here/../.." && pwd)

die() {
  echo "${0##*/}: $*" >&2
  exit 1
}

repository="" runner_dir=/opt/actions-runner host_dir=/opt/restbench-host plan=false
runner_user=bench service_user=restbench-svc sudoers=/etc/sudoers.d/restbench
while (($# > 0)); do
  case "$1" in
    --repository) repository=${2:-}; shift 2 ;;
    --runner-dir) runner_dir=${2:-}; shift 2 ;;
    --host-dir) host_dir=${2:-}; shift 2 ;;
    --runner-user) runner_user=${2:-}; shift 2 ;;
    --service-user) service_user=${2:-}; shift 2 ;;
    --sudoers) sudoers=${2:-}; shift 2 ;;
    --plan) plan=true; shift ;;
    *) die "unknown argument '$1' (usage: provision.sh --repository owner/name [--runner-dir DIR] [--host-dir DIR] [--runner-user NAME] [--service-user NAME] [--sudoers FILE] [--plan])" ;;
  esac
done
[[ "$repository" =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] || die "--repository owner/name is required"
for name in "$runner_user" "$service_user"; do
  [[ "$name" =~ ^[a-z_][a-z0-9_-]{0,31}$ ]] || die "'$name' is not a user name"
done
[[ "$runner_user" != "$service_user" ]] || die "the service user must not be the runner's user"
[[ "$(basename "$sudoers")" =~ ^[A-Za-z0-9_-]+$ ]] || die "sudo ignores a file in sudoers.d named like $sudoers"
[[ "$plan" == true || $(id -u) == 0 ]] || die "run as root (or with --plan to see what it would do)"
[[ "$plan" == true || -d "$runner_dir" ]] ||
  die "the runner directory $runner_dir does not exist: unpack GitHub's runner release there first (or name it with --runner-dir)"

# do <description> <command...>: runs it, or says it would.
step() {
  local what=$1
  shift
  if [[ "$plan" == true ]]; then
    echo "would $what"
  else
    echo "$what"
    "$@"
  fi
}

jdk_home() { # jdk_home <major>: the first JDK of that major under /usr/lib/jvm, by its release file
  local release
  for release in /usr/lib/jvm/*/release; do
    [[ -x "${release%/release}/bin/java" ]] || continue
    if grep -Eq "^JAVA_VERSION=\"$1([.\"]|$)" "$release"; then
      echo "${release%/release}"
      return 0
    fi
  done
  return 1
}

node_home() { # node_home <major>: /opt/node-v<major>, else the Node.js on PATH when its major matches
  local node
  for node in "/opt/node-v$1/bin/node" "$(command -v node || true)"; do
    [[ -n "$node" && -x "$node" ]] || continue
    if [[ "$("$node" --version 2>/dev/null)" == "v$1."* ]]; then
      node=$(realpath "$node")
      echo "${node%/bin/node}"
      return 0
    fi
  done
  return 1
}

install_jdk() {
  local v=$1 codename
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:?no VERSION_CODENAME in /etc/os-release}")
  if [[ ! -f /etc/apt/sources.list.d/adoptium.list ]]; then
    apt-get update -qq
    apt-get install -y -qq curl gpg ca-certificates
    install -d -m 0755 /etc/apt/keyrings
    curl -fsSL https://packages.adoptium.net/artifactory/api/gpg/key/public | gpg --dearmor >/etc/apt/keyrings/adoptium.gpg
    echo "deb [signed-by=/etc/apt/keyrings/adoptium.gpg] https://packages.adoptium.net/artifactory/deb $codename main" \
      >/etc/apt/sources.list.d/adoptium.list
  fi
  apt-get update -qq
  apt-get install -y -qq "temurin-$v-jdk"
}

install_node() {
  local v=$1 base=https://nodejs.org/dist/latest-v$1.x tmp file
  tmp=$(mktemp -d)
  curl -fsSL "$base/SHASUMS256.txt" -o "$tmp/SHASUMS256.txt"
  file=$(grep -oE "node-v$v\.[0-9]+\.[0-9]+-linux-x64\.tar\.xz" "$tmp/SHASUMS256.txt" | head -n 1)
  [[ -n "$file" ]] || die "no linux-x64 tarball of Node.js $v in $base/SHASUMS256.txt"
  curl -fsSL "$base/$file" -o "$tmp/$file"
  (cd "$tmp" && grep " $file\$" SHASUMS256.txt | sha256sum -c --quiet -) || die "$file does not match its checksum"
  rm -rf "/opt/node-v$v"
  mkdir -p "/opt/node-v$v"
  tar -xJf "$tmp/$file" -C "/opt/node-v$v" --strip-components=1 --no-same-owner
  rm -rf "$tmp"
}

# 1. Runtimes.
env_lines=() path_dirs=()
default=$(jq -r '.defaults.runtime | "\(.name) \(.version)"' "$root/benchmarks.json")
while read -r name version; do
  case "$name" in
    jdk)
      home=$(jdk_home "$version") || { step "install JDK $version (temurin-$version-jdk from Adoptium's apt repository)" install_jdk "$version"; home=$(jdk_home "$version" || echo "/usr/lib/jvm/temurin-$version-jdk-amd64"); }
      echo "JDK $version: $home"
      env_lines+=("JAVA_HOME_${version}_X64=$home")
      if [[ "$name $version" == "$default" ]]; then
        env_lines+=("JAVA_HOME=$home")
        path_dirs=("$home/bin" "${path_dirs[@]}")
      fi
      ;;
    node)
      home=$(node_home "$version") || { step "install Node.js $version (nodejs.org's latest v$version.x tarball) into /opt/node-v$version" install_node "$version"; home=/opt/node-v$version; }
      echo "Node.js $version: $home"
      env_lines+=("NODE${version}_HOME=$home")
      [[ "$home" == /usr ]] || path_dirs+=("$home/bin")
      ;;
    native)
      # A compiled executable runs as it is; its build fetches its pinned toolchain (services/go/build.sh takes
      # go.mod's from the Go module proxy with any go at all), so the host only needs some go for the job's user.
      if ! command -v go >/dev/null && [[ ! -x /usr/lib/go/bin/go ]]; then
        step "install Debian's golang-go (services/go/build.sh fetches the pinned Go toolchain with it)" \
          apt-get install -y -q golang-go
      fi
      echo "native: no runtime to install (a build fetches its own toolchain)"
      ;;
    *) die "benchmarks.json names a runtime '$name' this script cannot provide" ;;
  esac
done < <(MANIFEST="$root/benchmarks.json" "$root/.github/scripts/runtimes.sh")

# The tools the runner measures with: taskset (util-linux) pins every process to its cores, ss (iproute2) reads the
# load generator's connection bytes (response_bytes_per_req, absent without it).
for tool in taskset:util-linux ss:iproute2; do
  if ! command -v "${tool%%:*}" >/dev/null; then
    step "install ${tool#*:} (the runner's ${tool%%:*})" apt-get install -y -q "${tool#*:}"
  fi
done

# 2. The hooks, root-owned: the job can read and run them, never change them.
install_hooks() {
  local f
  install -d -o root -g root -m 0755 "$host_dir"
  for f in job-started.sh job-completed.sh runner-cleanup.sh; do
    install -o root -g root -m 0755 "$here/$f" "$host_dir/$f"
  done
  printf 'REPOSITORY=%s\n' "$repository" >"$host_dir/host.conf.new"
  chmod 0644 "$host_dir/host.conf.new"
  mv "$host_dir/host.conf.new" "$host_dir/host.conf"
}
step "install the job hooks into $host_dir (root-owned) for $repository" install_hooks

# 3. The service user and the one sudo rule the runner's user gets: any command, as that user only.
install_service_user() {
  local home shell rule
  if ! id "$service_user" >/dev/null 2>&1; then
    useradd --system --create-home --home-dir "/var/lib/$service_user" --shell /usr/sbin/nologin "$service_user"
  fi
  IFS=: read -r _ _ _ _ _ home shell < <(getent passwd "$service_user")
  [[ "$shell" == */nologin || "$shell" == */false ]] ||
    die "$service_user exists with the login shell $shell: the service user must be one of its own (./bench kills its processes and empties its home)"
  [[ -d "$home" ]] || install -d -o "$service_user" -g "$(id -g "$service_user")" "$home"
  chmod 0700 "$home"
  if ! command -v sudo >/dev/null || ! command -v visudo >/dev/null; then
    apt-get update -qq
    apt-get install -y -qq sudo
  fi
  rule=$(mktemp)
  printf '%s\n' "# restbench (.github/host/provision.sh): the variant builds and services run as $service_user" \
    "$runner_user ALL=($service_user) NOPASSWD: ALL" >"$rule"
  visudo -cqf "$rule" || { rm -f "$rule"; die "visudo rejects the rule for $sudoers"; }
  install -D -o root -g root -m 0440 "$rule" "$sudoers"
  rm -f "$rule"
}
step "create the service user $service_user (no login; home /var/lib/$service_user, 0700) and let $runner_user run processes as it ($sudoers)" install_service_user

# 4. The runner's environment.
env_lines+=("ACTIONS_RUNNER_HOOK_JOB_STARTED=$host_dir/job-started.sh"
  "ACTIONS_RUNNER_HOOK_JOB_COMPLETED=$host_dir/job-completed.sh"
  "PATH=$(IFS=:; echo "${path_dirs[*]}"):/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
  "RESTBENCH_SERVICE_USER=$service_user")
keys=$(printf '%s\n' "${env_lines[@]}" | sed 's/=.*//' | paste -sd'|' -)
# The runner's directory may belong to the runner's user (a persistent runner), who can put links where root would
# write: root then writes nothing there itself. The new .env is written as the directory's owner, who can only reach
# through a link what it could write anyway; an existing .env is read only when it is a regular file, not a link.
write_env() {
  local owner
  owner=$(stat -c %U "$runner_dir")
  # shellcheck disable=SC2016 # expanded by the owner's shell, from its arguments
  printf '%s\n' "${env_lines[@]}" | runuser -u "$owner" -- bash -c '
    set -euo pipefail
    file=$1/.env keys=$2
    tmp=$(mktemp "$1/.env.XXXXXX")
    {
      if [[ -f "$file" && ! -L "$file" ]]; then grep -Ev "^($keys)=" "$file" || true; fi
      cat
    } >"$tmp"
    chmod 0644 "$tmp"
    mv -fT "$tmp" "$file"' _ "$runner_dir" "$keys"
}
step "write $runner_dir/.env" write_env
echo "runner .env:"
printf '  %s\n' "${env_lines[@]}"
