#!/usr/bin/env bash
# Screenshots of a report as a reader sees it: headless Chromium at 1,400 px (a laptop) and
# 390 px (a phone), the whole page each, and the page's height in screens of 900 px.
#
#   scripts/report_screenshots.sh DIR [OUT]     # DIR/report.html -> OUT/report_1400.png, ...
#
# OUT defaults to DIR/screenshots. Needs chromium (Debian: apt-get install chromium). The
# report has no script; the page height is read from a copy with a one-line script added.
# With FOLDS=open, every <details> is opened first (the height of everything).
set -euo pipefail
dir=${1:?usage: scripts/report_screenshots.sh DIR [OUT]}
out=${2:-$dir/screenshots}
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chrome" ] || { echo "report_screenshots: chromium not found" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
page="$tmp/report.html"
if [ "${FOLDS:-closed}" = open ]; then
  sed 's#<details>#<details open>#g' "$dir/report.html" > "$page"
else
  cp "$dir/report.html" "$page"
fi
sed 's#</body>#<script>document.body.setAttribute("data-height", document.documentElement.scrollHeight)</script></body>#' \
  "$page" > "$tmp/measure.html"
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1)
for w in 1400 390; do
  h=$("$chrome" "${flags[@]}" --window-size="$w,900" --dump-dom "file://$tmp/measure.html" 2>/dev/null \
    | grep -o 'data-height="[0-9]*"' | grep -o '[0-9][0-9]*')
  echo "$w px wide: page $h px tall, $(( (h + 899) / 900 )) screens of 900 px"
  "$chrome" "${flags[@]}" --window-size="$w,$h" --screenshot="$out/report_$w.png" "file://$page" 2>/dev/null
done
