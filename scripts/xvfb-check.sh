#!/usr/bin/env bash
# Drives the real app in a real X session, the way a person does: starts it through
# scripts/run-app.sh under Xvfb, sends keys and a drag with xdotool (through the X server, the
# window system and Qt's whole input path: filters, shortcut overrides, focus), takes a
# screenshot after each step and checks that the picture and the app's state changed as they
# should. Screenshots are kept in $FENCESCOPE_XVFB_OUT (default build/xvfb-check).
set -euo pipefail
cd "$(dirname "$0")/.."
FENCESCOPE_X11_DEPS=1 FENCESCOPE_GUI_DEPS=1 bash scripts/deps.sh
out=${FENCESCOPE_XVFB_OUT:-$PWD/build/xvfb-check}
rm -rf "$out"; mkdir -p "$out"
work=$(mktemp -d)
display=:$((90 + RANDOM % 100))
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=$display
for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
xdpyinfo >/dev/null 2>&1 || { echo "xvfb-check: Xvfb did not start" >&2; exit 1; }

# a user of its own: settings, recent files and autosaves never touch the real home
export HOME=$work/home XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data \
       XDG_RUNTIME_DIR=$work/run FENCESCOPE_AUTOSAVE_DIR=$work/autosave
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
# the quick tour that a first run shows is over the window the keys below are for: seen already
mkdir -p "$XDG_CONFIG_HOME/FenceScope"
printf '[tour]\ndone=true\n' > "$XDG_CONFIG_HOME/FenceScope/FenceScope.conf"
export FENCESCOPE_STATE_FILE=$work/state.json QT_QPA_PLATFORM=xcb
bash scripts/run-app.sh >"$out/app.log" 2>&1 &
pids+=($!)

fail() { echo "xvfb-check: FAILED: $*" >&2; echo "  (screenshots and logs in $out)" >&2; exit 1; }
state() { grep -o "\"$1\":[^,}]*" "$FENCESCOPE_STATE_FILE" | head -1 | cut -d: -f2- | tr -d '"'; }
# waits until the app reports KEY=VALUE (it writes its state a few times a second)
expect() {
  for _ in $(seq 100); do [ -f "$FENCESCOPE_STATE_FILE" ] && [ "$(state "$1")" = "$2" ] && return 0; sleep 0.05; done
  fail "after $step: expected $1=$2, the app says $1=$(state "$1")"
}
shots=0
# a screenshot of the whole screen to look at, and the timeline alone to compare (toolbar
# texts such as "Redo Fencing off" rightly differ after an undo)
shot() {
  sleep 0.4; shots=$((shots + 1)); step=$1
  local name; name="$out/$(printf %02d $shots)-$1"
  import -window root "$name.png"
  convert "$name.png" -crop "$(state timelineRect)" +repage "$name-timeline.png"
  last="$name-timeline.png"
}
# how many pixels differ (ImageMagick may print 1.2e+06)
pixels() { compare -metric AE "$1" "$2" null: 2>&1 | awk '{ printf "%d", $1 }' || true; }
differs() { local n; n=$(pixels "$1" "$2"); [ "$n" -gt 500 ] || fail "$step: the window did not change ($n pixels differ from $(basename "$1"))"; }
same() { local n; n=$(pixels "$1" "$2"); [ "$n" -lt 200 ] || fail "$step: the window should look as in $(basename "$1") ($n pixels differ)"; }
key() { xdotool key --window "$win" --clearmodifiers "$@"; }

# the build may take a while on a fresh machine
win=""
for _ in $(seq 1800); do
  win=$(xdotool search --onlyvisible --name "FenceScope" 2>/dev/null | head -1 || true)
  [ -n "$win" ] && break
  kill -0 "${pids[1]}" 2>/dev/null || fail "the app exited before showing a window (see $out/app.log)"
  sleep 0.2
done
[ -n "$win" ] || fail "no FenceScope window appeared"
step=start
# no window manager here: a new top-level window gets the focus only when asked
for _ in $(seq 50); do xdotool windowfocus "$win" 2>/dev/null && break; sleep 0.1; done
expect fencing true
expect rejected 1
shot start; s_start=$last

step=F; key f; expect fencing false; expect corrupted 1; shot fencing-off; s_off=$last
differs "$s_start" "$s_off"

step=C; key c; expect compare true; shot compare; differs "$s_off" "$last"
key c; expect compare false; shot compare-off; same "$s_off" "$last"

step=Space; key space; sleep 1.2; shot playing-1; s_p1=$last
sleep 1.0; shot playing-2; differs "$s_p1" "$last"
key space; key End; expect playhead -1; shot stopped; same "$s_off" "$last"

step=F11; key F11; expect presenting true; expect presentationStep 0; shot presenting; s_pres=$last
differs "$s_off" "$s_pres"
prev=$s_pres
for i in 1 2 3; do
  step="Right $i"; key Right; expect presentationStep 1; shot "step-$i"; differs "$prev" "$last"; prev=$last
done
step=Escape; key Escape; expect presenting false; shot presentation-left; same "$s_off" "$last"

step=Ctrl+Z; key ctrl+z; expect fencing true; expect corrupted 0; shot undo; same "$s_start" "$last"
step=Ctrl+Shift+Z; key ctrl+shift+z; expect fencing false; expect corrupted 1; shot redo; same "$s_off" "$last"
key ctrl+z; expect fencing true

# drag the end of A's pause (tick 30) back to tick 8: A wakes inside its lease and its write,
# deferred to the thaw, goes out in time: safe, nothing rejected
step="drag pause end"
y=$(state pauseRowY); y=${y%.*}
xs=$(grep -o '"tickX":\[[^]]*\]' "$FENCESCOPE_STATE_FILE" | sed 's/.*\[//; s/\]//' | tr ',' ' ')
read -r -a tickx <<<"$xs"
x30=${tickx[30]%.*}; x8=${tickx[8]%.*}
xdotool mousemove --sync "$x30" "$y"; sleep 0.2
xdotool mousedown 1
for x in $(seq "$x30" -8 "$x8") "$x8"; do xdotool mousemove "$x" "$y"; sleep 0.02; done
sleep 0.2; xdotool mouseup 1
expect clientAPauseLength 7
expect rejected 0
expect accepted 2
shot dragged; s_dragged=$last; differs "$s_start" "$s_dragged"
# (the dragged pause stays selected, so the picture is not the first one again)
step="undo drag"; key ctrl+z; expect clientAPauseLength 29; expect rejected 1; shot drag-undone
differs "$s_dragged" "$last"

# a built-in lesson's first question, in presentation, with real key presses: the app again,
# opening the lesson file (docs/LESSONS.md; tests/ui/tst_lessoncontroller.cpp works the answer
# out by hand: A's write arrives at t=30 over B's, unfenced: B, corrupted)
kill "${pids[1]}"; wait "${pids[1]}" 2>/dev/null || true
rm -f "$FENCESCOPE_STATE_FILE"
bash scripts/run-app.sh resources/lessons/1-why-a-lock-needs-fencing.fencescope-lesson.json \
  >"$out/app-lesson.log" 2>&1 &
pids+=($!)
win=""
for _ in $(seq 300); do
  win=$(xdotool search --onlyvisible --name "FenceScope" 2>/dev/null | head -1 || true)
  [ -n "$win" ] && break
  sleep 0.2
done
[ -n "$win" ] || fail "no FenceScope window appeared for the lesson"
for _ in $(seq 50); do xdotool windowfocus "$win" 2>/dev/null && break; sleep 0.1; done
step="lesson opened"; expect lessonScene 1
step=Alt+Right; key alt+Right; expect lessonScene 2; expect lessonStage question
step="lesson F11"; key F11; expect presenting true; expect lessonStage opening
shot lesson-opening; prev=$last
for i in 1 2 3 4 5; do
  step="lesson Right $i"; key Right; expect lessonStage step
done
step="lesson question"; key Right; expect lessonStage question; expect playhead 29
shot lesson-question; s_question=$last
step="hands for A"; key a; xdotool type --window "$win" 12; key Return
expect lessonHands "12 -1 -1 -1 -1"
step="reveal"; key Right; expect lessonStage answer; expect lessonMarked B; expect playhead 30
shot lesson-answer; differs "$s_question" "$last"
step="lesson back"; key Left; expect lessonStage question; expect lessonMarked ""
step="lesson Escape"; key Escape; expect presenting false
grep -q "Ambiguous shortcut" "$out/app-lesson.log" && fail "Qt reported an ambiguous shortcut (see $out/app-lesson.log)"

grep -q "Ambiguous shortcut" "$out/app.log" && fail "Qt reported an ambiguous shortcut (see $out/app.log)"

# The classroom's projector: the same app on a 1280x800 screen, presented step by step with real
# key presses, then in compare mode, then left. At every step the window fills the screen and no
# more, and the step's sentence shows whole (the app reports whether its label holds its text).
kill "${pids[1]}" 2>/dev/null || true; wait "${pids[1]}" 2>/dev/null || true
display2=:$((200 + RANDOM % 100))
Xvfb "$display2" -screen 0 1280x800x24 -nolisten tcp >"$out/xvfb-1280.log" 2>&1 &
pids+=($!)
export DISPLAY=$display2
for _ in $(seq 50); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
rm -f "$FENCESCOPE_STATE_FILE"
bash scripts/run-app.sh >"$out/app-1280.log" 2>&1 &
pids+=($!)
win=""
for _ in $(seq 600); do
  win=$(xdotool search --onlyvisible --name "FenceScope" 2>/dev/null | head -1 || true)
  [ -n "$win" ] && break
  sleep 0.2
done
[ -n "$win" ] || fail "no FenceScope window appeared at 1280x800"
for _ in $(seq 50); do xdotool windowfocus "$win" 2>/dev/null && break; sleep 0.1; done
fits() {
  local size w h; size=$(state windowSize); w=${size%x*}; h=${size#*x}
  [ "${w:-9999}" -le 1280 ] && [ "${h:-9999}" -le 800 ] || fail "$step: the window is $size on a 1280x800 screen"
}
step="1280x800 open"; expect fencing true; fits; shot projector-open
step="1280x800 F11"; key F11; expect presenting true; expect presentationStep 0; fits; shot projector-start
ticks=""
for i in 1 2 3 4 5 6; do
  step="1280x800 Right $i"; key Right; expect presentationStep 1; expect sentenceWhole true; fits
  shot "projector-step-$i"; ticks="$ticks $(state playhead)"
done
[ "$ticks" = " 0 1 5 12 13 30" ] || fail "presentation at 1280x800 stepped through$ticks, not 0 1 5 12 13 30"
step="1280x800 C"; key c; expect compare true; expect sentenceWhole true; fits; shot projector-compare
step="1280x800 Left"; key Left; expect playhead 13; expect sentenceWhole true; fits; shot projector-compare-back
step="1280x800 Escape"; key Escape; expect presenting false; fits; shot projector-left
key c; expect compare false; fits
echo "xvfb-check: all steps passed ($shots screenshots in $out)"
