#!/usr/bin/env bash
# Vendors GraphiQL's browser assets into games/static/graphiql/ so /graphql/ never loads a
# script from another host. The versions and files are the ones strawberry's own GraphiQL
# page pins (with these SRI hashes); our template, games/templates/graphql/graphiql.html,
# loads them from our static files with the same integrity attributes.
#
#   scripts/vendor_graphiql.sh          download with `npm pack`, verify, copy (needs npm)
#   scripts/vendor_graphiql.sh --check  verify the committed files only (no network)
#
# The files are committed (about 4 MB, all MIT-licensed), so neither the server nor CI
# needs npm; run this only to change a version (then update the template's paths and
# integrity values too).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/games/static/graphiql"

# package@version | file in the package | sha384 (base64) as in strawberry's graphiql.html
ASSETS=(
    "react@18.2.0|umd/react.production.min.js|tMH8h3BGESGckSAVGZ82T9n90ztNXxvdwvdM6UoR56cYcf+0iGXBliJ29D+wZ/x8"
    "react-dom@18.2.0|umd/react-dom.production.min.js|bm7MnzvK++ykSwVJ2tynSE5TRdN+xL418osEVF2DE/L/gfWHj91J2Sphe582B1Bh"
    "js-cookie@3.0.5|dist/js.cookie.min.js|/vxhYfM1LENRhdpZ8dwEsQn/X4VhpbEZSiU4m/FwR+PVpzar4fkEOw8FP9Y+OfQN"
    "graphiql@3.8.3|graphiql.min.css|Mq3vbRBY71jfjQAt/DcjxUIYY33ksal4cgdRt9U/hNPvHBCaT2JfJ/PTRiPKf0aM"
    "graphiql@3.8.3|graphiql.min.js|HbRVEFG0JGJZeAHCJ9Xm2+tpknBQ7QZmNlO/DgZtkZ0aJSypT96YYGRNod99l9Ie"
    "@graphiql/plugin-explorer@1.0.2|dist/style.css|5DFJlDPW2tSATRbM8kzoP1j194jexLswuNmClWoRr2Q0x7R68JIQzPHZ02Faktwi"
    "@graphiql/plugin-explorer@1.0.2|dist/index.umd.js|2oonKe47vfHIZnmB6ZZ10vl7T0Y+qrHQF2cmNTaFDuPshpKqpUMGMc9jgj9MLDZ9"
)

sri() { printf 'sha384-%s' "$(openssl dgst -sha384 -binary "$1" | base64 -w0)"; }

# games/static/graphiql/<package>-<version>/<file> (@scope/ flattened to scope-): no @ in
# URLs, which {% static %} would escape
target_of() { local pkg="${1#@}"; pkg="${pkg//\//-}"; printf '%s/%s/%s' "$DEST" "${pkg/@/-}" "$2"; }

verify() {
    local entry pkg file hash target bad=0
    for entry in "${ASSETS[@]}"; do
        IFS='|' read -r pkg file hash <<<"$entry"
        target="$(target_of "$pkg" "$file")"
        if [ ! -f "$target" ] || [ "$(sri "$target")" != "sha384-$hash" ]; then
            echo "[vendor] wrong or missing: $target" >&2
            bad=1
        fi
    done
    return $bad
}

if [ "${1:-}" = "--check" ]; then
    verify && echo "[vendor] GraphiQL assets verified"
    exit
fi

command -v npm >/dev/null || { echo "[vendor] needs npm (apt-get install npm)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
declare -A fetched=()
for entry in "${ASSETS[@]}"; do
    IFS='|' read -r pkg file hash <<<"$entry"
    if [ -z "${fetched[$pkg]:-}" ]; then
        mkdir -p "$work/$pkg"
        tarball="$(cd "$work" && npm pack --silent "$pkg")"
        tar xzf "$work/$tarball" -C "$work/$pkg"
        fetched[$pkg]=1
        if [ -f "$work/$pkg/package/LICENSE" ]; then
            mkdir -p "$(dirname "$(target_of "$pkg" LICENSE)")"
            cp "$work/$pkg/package/LICENSE" "$(target_of "$pkg" LICENSE)"
        fi
    fi
    target="$(target_of "$pkg" "$file")"
    mkdir -p "$(dirname "$target")"
    cp "$work/$pkg/package/$file" "$target"
done
verify
echo "[vendor] GraphiQL assets written to $DEST"
