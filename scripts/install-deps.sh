#!/usr/bin/env bash
# Installs the Debian packages TransNFV's build and tests need, when missing and when
# running as root on Debian; otherwise says what is missing and carries on (features that
# need them report themselves unavailable).
set -uo pipefail

packages=()
for pkg in "$@"; do packages+=("$pkg"); done
[ ${#packages[@]} -eq 0 ] && exit 0

missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "transnfv: installing ${missing[*]} with apt-get..." >&2
  if ! { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; }; then
    echo "transnfv: could not install ${missing[*]}; continuing without them" >&2
  fi
else
  echo "transnfv: missing Debian packages ${missing[*]} (install them as root); continuing without them" >&2
fi
exit 0
