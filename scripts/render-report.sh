#!/usr/bin/env bash
# Renders a report's index.html (membound report --out DIR) in headless Chromium to a PNG screenshot,
# to look at the page as a reader would. Uses Debian's chromium package; nothing is fetched from a
# network (the page is self-contained, and the flags below keep Chromium's own traffic off).
#
# usage: scripts/render-report.sh DIR [OUT.png] [HEIGHT_PX]
#   DIR        a directory membound report wrote (it holds index.html)
#   OUT.png    the screenshot (default: DIR-page.png beside DIR; never inside DIR, which is the report's)
#   HEIGHT_PX  window height (default: estimated from the page, so the whole page fits)
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
  echo "usage: scripts/render-report.sh DIR [OUT.png] [HEIGHT_PX]" >&2
  exit 2
fi
dir=$(cd "$1" 2>/dev/null && pwd) || { echo "render-report: DIR must be a directory: DIR=$1" >&2; exit 2; }
index="$dir/index.html"
[ -f "$index" ] || { echo "render-report: DIR must hold index.html (membound report --out DIR): DIR=$dir" >&2; exit 2; }
out=${2:-"$dir-page.png"}
case "$out" in
  /*) ;;
  *) out="$PWD/$out" ;;
esac

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "render-report: chromium must be installed: apt-get update && apt-get install -y chromium" >&2
  exit 2
fi

width=1400
if [ $# -ge 3 ]; then
  height=$3
else
  # A headless screenshot is one window, so the window must be as tall as the page: a chart with its
  # heading and caption takes about 820 px, a table row up to 60 px (sources wrap), a list item 12 px.
  # Generous on purpose: blank space below the page costs nothing, a cut page hides what it cut.
  figures=$(grep -c '<figure' "$index" || true)
  rows=$(grep -c '<tr' "$index" || true)
  items=$(grep -c '<li' "$index" || true)
  height=$(( 1200 + figures * 900 + rows * 60 + items * 12 ))
fi

profile_dir=$(mktemp -d)
trap 'rm -rf "$profile_dir"' EXIT
flags=(--headless --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$profile_dir"
       --window-size="$width,$height" --screenshot="$out")
# Chromium refuses to run as root with its sandbox on; a screenshot of our own local page needs none.
if [ "$(id -u)" -eq 0 ]; then
  flags+=(--no-sandbox)
fi
"$browser" "${flags[@]}" "file://$index" >/dev/null 2>&1 || {
  echo "render-report: chromium failed to render $index" >&2
  exit 1
}
[ -s "$out" ] || { echo "render-report: chromium wrote no screenshot: $out" >&2; exit 1; }
echo "wrote $out (${width}x${height}) from $index"
