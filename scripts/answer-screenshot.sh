#!/usr/bin/env bash
# Looks at a page of membound answer (or report) in a real browser: headless Chromium takes a full-page
# screenshot. Usage: scripts/answer-screenshot.sh DIR [OUT.png]   (DIR holds index.html; OUT defaults to DIR/screenshot.png)
set -euo pipefail
dir=${1:?usage: scripts/answer-screenshot.sh DIR [OUT.png]}
shot=${2:-$dir/screenshot.png}
[ -f "$dir/index.html" ] || { echo "answer-screenshot: $dir/index.html must exist (write it with membound answer --out $dir)" >&2; exit 2; }
[ -e "$shot" ] && { echo "answer-screenshot: $shot exists; name a new file" >&2; exit 2; }
chromium=${MEMBOUND_CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
[ -n "$chromium" ] || { echo "answer-screenshot: no chromium found (apt-get install chromium, or set MEMBOUND_CHROMIUM)" >&2; exit 2; }
page=$(cd "$dir" && pwd)/index.html
# Tall enough for the whole page at 1100 px wide: about 900 px a chart with its caption, 60 a table row, 1,200 for
# the title and the written answer.
figures=$(grep -o '<figure' "$page" | wc -l); rows=$(grep -o '<tr' "$page" | wc -l)
height=$(( 1200 + figures * 900 + rows * 60 ))
"$chromium" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,"$height" \
  --virtual-time-budget=5000 --screenshot="$shot" "file://$page" >/dev/null 2>&1
echo "screenshot of $page: $shot (1100 x $height px)"
