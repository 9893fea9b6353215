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
# Tall enough for the whole page at 1100 px wide, generously: about 950 px a chart with its caption, 120 a table row
# (an answer page's cells wrap to several lines), 40 a list item, 1,400 for the title and the written answer. Chromium
# shoots the window, not the page: the blank below the page's end is cut off afterwards.
figures=$(grep -o '<figure' "$page" | wc -l); rows=$(grep -o '<tr' "$page" | wc -l); items=$(grep -o '<li' "$page" | wc -l)
height=$(( 1400 + figures * 950 + rows * 120 + items * 40 ))
"$chromium" --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=1100,"$height" \
  --virtual-time-budget=5000 --screenshot="$shot" "file://$page" >/dev/null 2>&1
[ -s "$shot" ] || { echo "answer-screenshot: chromium wrote no screenshot of $page" >&2; exit 1; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
if command -v "$java" >/dev/null; then
  # Rows identical to the last one (the page's background below its end) are cut, leaving 40 of them: a few lines of
  # Java run from source (JDK 11+), as the project's JDK is at hand anyway.
  trim=$(mktemp -d); trap 'rm -rf "$trim"' EXIT
  cat > "$trim/Trim.java" <<'JAVA'
import java.awt.image.BufferedImage;
import java.io.File;
import javax.imageio.ImageIO;

public class Trim {
    public static void main(String[] args) throws Exception {
        File file = new File(args[0]);
        BufferedImage image = ImageIO.read(file);
        int w = image.getWidth();
        int[] last = image.getRGB(0, image.getHeight() - 1, w, 1, null, 0, w);
        int end = image.getHeight();
        while (end > 1 && java.util.Arrays.equals(image.getRGB(0, end - 1, w, 1, null, 0, w), last)) {
            end--;
        }
        int keep = Math.min(image.getHeight(), end + 40);
        ImageIO.write(image.getSubimage(0, 0, w, keep), "png", file);
        System.out.println(keep);
    }
}
JAVA
  height=$("$java" -Djava.awt.headless=true "$trim/Trim.java" "$shot")
fi
echo "screenshot of $page: $shot (1100 x $height px)"
