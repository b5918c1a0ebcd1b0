#!/usr/bin/env bash
# retrystorm-ci-diff BASE_REF [OUT_DIR]
#
# For a pull request: runs every scenario the branch changed on the base (the merge base with
# BASE_REF, checked out in a temporary git worktree) and on the head (the working tree), and
# writes OUT_DIR/comment.md, one pull-request comment with the diff of each, plus
# OUT_DIR/<scenario>/{base,head}/report.html for an artifact. The CI workflow posts the
# comment (docs/github-actions-pr-diff.yml); this script only reads the repository and writes
# OUT_DIR, so it runs the same on a laptop.
#
# Exit code: 0 nothing fails; 1 a guard on change failed, or an expectation that passed on the
# base fails on the head (the comment says which), or (with RETRYSTORM_FAIL_ON_WORSE) a verdict
# measure got worse beyond seed noise; 2 bad input or a run that failed.
#
# Environment:
#   RETRYSTORM_SCENARIOS  which changed files are scenarios (a grep -E pattern on paths;
#                         default: ^scenarios/.*\.ya?ml$)
#   RETRYSTORM_SEEDS      seeds per variant for both sides (default: each scenario's own)
#   RETRYSTORM            the command that runs retrystorm (default: the one next to this script)
#   RETRYSTORM_FAIL_ON_WORSE  when set (to anything but empty or 0), a head worse beyond seed
#                         noise fails the check too (diff --fail-on-worse)
#   RETRYSTORM_COMMENT_CHARS  the most characters comment.md may hold (default 60000: GitHub
#                         refuses a comment over 65,536); past it each scenario's section keeps
#                         its verdict and names its full diff in the artifact
set -euo pipefail

base_ref="${1:?usage: retrystorm-ci-diff BASE_REF [OUT_DIR]}"
out="${2:-retrystorm-diff}"
pattern="${RETRYSTORM_SCENARIOS:-^scenarios/.*\.ya?ml$}"
here="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
if [ -n "${RETRYSTORM:-}" ]; then read -r -a cli <<< "$RETRYSTORM"; else cli=(node "$here/retrystorm.js"); fi

root="$(git rev-parse --show-toplevel)"
cd "$root"
merge_base="$(git merge-base "$base_ref" HEAD)" || { echo "retrystorm-ci-diff: no common history between $base_ref and HEAD (fetch with fetch-depth: 0)" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
tree="$(mktemp -d)/base"
git worktree add --quiet --detach "$tree" "$merge_base"
cleanup() { git worktree remove --force "$tree" >/dev/null 2>&1 || true; }
trap cleanup EXIT

seeds=()
if [ -n "${RETRYSTORM_SEEDS:-}" ]; then seeds=(--seeds "$RETRYSTORM_SEEDS"); fi
fail_on_worse=()
case "${RETRYSTORM_FAIL_ON_WORSE:-}" in ''|0) ;; *) fail_on_worse=(--fail-on-worse) ;; esac
limit="${RETRYSTORM_COMMENT_CHARS:-60000}"

# Changed scenario files: modified, added or deleted since the merge base (renames as delete + add).
mapfile -t changed < <(git diff --name-only --no-renames "$merge_base" -- | grep -E "$pattern" || true)
# …and files changed in the working tree but not committed, when run by hand.
mapfile -t -O "${#changed[@]}" changed < <(git diff --name-only --no-renames HEAD -- | grep -E "$pattern" || true)
mapfile -t changed < <(printf '%s\n' "${changed[@]}" | sort -u | sed '/^$/d')

comment="$out/comment.md"
{
  echo '<!-- retrystorm-diff -->'
  echo "## retrystorm: ${#changed[@]} scenario(s) changed against ${base_ref} (${merge_base:0:12})"
  echo
} > "$comment"
worst=0
sections=()
for file in "${changed[@]}"; do
  name="$(echo "$file" | sed 's#[/ ]#_#g; s#\.ya\?ml$##')"
  mkdir -p "$out/$name"
  if [ ! -f "$file" ]; then
    printf -- '- `%s`: removed by this pull request.\n\n' "$file" >> "$comment"
    continue
  fi
  if [ ! -f "$tree/$file" ]; then
    code=0
    "${cli[@]}" run "$file" --out "$out/$name/head" --quiet "${seeds[@]}" > "$out/$name/run.txt" 2> "$out/$name/stderr.txt" || code=$?
    { printf -- '- `%s`: a new scenario (nothing to compare with); its run exited %s:\n\n```\n' "$file" "$code"; cat "$out/$name/run.txt"; printf '```\n\n'; } >> "$comment"
    if [ "$code" -eq 1 ] && [ "$worst" -lt 1 ]; then worst=1; elif [ "$code" -gt 1 ]; then worst=2; fi
    continue
  fi
  code=0
  "${cli[@]}" diff "$tree/$file" "$file" --markdown --out "$out/$name" "${seeds[@]}" "${fail_on_worse[@]}" > "$out/$name/diff.md" 2> "$out/$name/stderr.txt" || code=$?
  if [ "$code" -gt 1 ]; then
    { printf -- '- `%s`: retrystorm could not compare it (exit %s):\n\n```\n' "$file" "$code"; tail -n 20 "$out/$name/stderr.txt"; printf '```\n\n'; } >> "$comment"
    worst=2
    continue
  fi
  { printf '<sub>`%s`</sub>\n\n' "$file"; grep -v '^<!-- retrystorm-diff -->$' "$out/$name/diff.md"; echo; } > "$out/$name/section.md"
  sections+=("$name")
  if [ "$code" -eq 1 ] && [ "$worst" -lt 1 ]; then worst=1; fi
done
# Each scenario's section whole, unless the comment would pass the limit: then each keeps what
# comes before its folded details, cut to its share, and names its whole diff in the artifact.
whole=$(( $(wc -m < "$comment") ))
for name in "${sections[@]}"; do whole=$(( whole + $(wc -m < "$out/$name/section.md") )); done
for name in "${sections[@]}"; do
  if [ "$whole" -le "$limit" ]; then cat "$out/$name/section.md" >> "$comment"; continue; fi
  share=$(( (limit - $(wc -m < "$comment")) / ${#sections[@]} - 200 ))
  { sed '/^<details>/,$d' "$out/$name/section.md" | awk -v max="$share" '{ n += length($0) + 1; if (n > max) exit; print }'
    printf '\n_Cut to keep the comment under GitHub'"'"'s size limit: the whole diff is `%s/diff.md` in the workflow'"'"'s artifact._\n\n' "$name"; } >> "$comment"
done
if [ "${#changed[@]}" -eq 0 ]; then echo "No scenario file changed (pattern: \`$pattern\`)." >> "$comment"; fi
echo "retrystorm-ci-diff: wrote $comment" >&2
exit "$worst"
