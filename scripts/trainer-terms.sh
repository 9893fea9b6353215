#!/usr/bin/env bash
# Writes model/src/main/resources/membound/model/trainers/trainer-terms.tsv from the terms 'membound validate
# --published' fits on the published set's fit rows (training groups only). TrainerTermsTest fails when the committed
# table and the fit disagree; run this after changing the set or the fit, then rebuild.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/model/src/main/resources/membound/model/trainers/trainer-terms.tsv"
"$root/scripts/membound" validate --published --format json | python3 -c '
import json, sys
terms = json.load(sys.stdin)["fittedTerms"]
print("# Written by scripts/trainer-terms.sh from membound validate --published: each training group'"'"'s fitted terms and")
print("# the published-set rows (published.tsv ids) they were fitted on. Do not edit by hand: TrainerTermsTest compares.")
print("group\tterm\tvalue\tunit\tfitted-on")
for t in terms:
    kind, group, term = t["name"].split(".", 2) if t["name"].count(".") >= 2 else (None, None, None)
    if kind != "training" or not t["fittedOn"]:
        continue
    print("\t".join([group, term, repr(t["value"]), t["unit"], ",".join(t["fittedOn"])]))
' > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
