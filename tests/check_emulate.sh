#!/bin/sh
# check_emulate.sh PREFIX "BOARDS" WORKDIR - `rrbake emulate` from an installed prefix.
#
# PREFIX is a `make install` prefix (tests/example-project/check.sh makes one
# in make test); everything runs from it: PREFIX/bin/rrbake and the board
# programs PREFIX/lib/romroom/<board>/rr-emulate.elf. Checks, one each:
#   - per QEMU board and format (roo, rmesh, rmf: rrbake's sample rooms), a
#     file of queries answered on the board: exit status 0 (every answer equal
#     to the host's) and one "QUERY => ANSWER" line per query;
#   - three answers against `rrbake query` (a different printer: source
#     units with the raw coords in brackets), so the compared answers are
#     themselves right;
#   - --expect: another board's output as the expected answers passes, the
#     same with one answer changed fails with status 1 and names the line;
#   - a missing board program is status 3, a query the boards do not run is
#     status 2 naming the file and line.
# Last line: "# emulate: N passed, M failed".
prefix=$1 boards=$2 work=$3
rb=$prefix/bin/rrbake
P=0 F=0
pass() { P=$((P + 1)); echo "$1"; }
fail() { F=$((F + 1)); echo "FAIL $1"; }
rm -rf "$work"
mkdir -p "$work"
for f in roo rmesh rmf; do "$rb" sample $f -o "$work/$f" > /dev/null || fail "rrbake sample $f"; done
# Queries in source units; the sample rooms are small (roo: 4 sectors in
# 4096 x 4096 client units; rmesh: a floor at y = 0; rmf: 12 brushes).
cat > "$work/roo.q" <<'EOF'
# a comment, then the roo queries
height 1024 1024
locate 2500 2500
move 500 500 3500 3500 64 40 256
slide 500 500 3500 3000 64 40 256
sight 500 500 100 3500 3500 100

grid 1024 1024
height -99999 5
EOF
cat > "$work/rmesh.q" <<'EOF'
ray 0 100 0 0 -1 0 10000
ray 10 50 10 1 -1 0.5 500
sweep 0 10 0 30 10 0 2 4 2
trigger 0 10 0
box -10 -10 -10 10 10 10
EOF
cat > "$work/rmf.q" <<'EOF'
contents 0 0 -8
trace 0 0 600 0 0 -600
trace -100 0 100 100 0 100 16 16 36
box -64 -64 -64 64 64 64
EOF
first=
for b in $boards; do
    [ "$b" = host ] && continue
    for f in roo rmesh rmf; do
        room=$(ls "$work/$f"/sample.* | head -1)
        n=$(grep -cvE '^[[:space:]]*(#|$)' "$work/$f.q")
        "$rb" emulate --board "$b" "$room" "$work/$f.q" > "$work/$b-$f.out" 2> "$work/$b-$f.err"
        rc=$?
        if [ $rc = 0 ] && [ "$(grep -c ' => ' "$work/$b-$f.out")" = "$n" ]; then
            pass "$b/$f: $n answers equal to the host's"
        else
            fail "$b/$f: exit status $rc, $(grep -c ' => ' "$work/$b-$f.out") of $n answers"
            head -5 "$work/$b-$f.err"
        fi
    done
    [ -n "$first" ] || first=$b
done
if [ -z "$first" ]; then
    echo "# emulate: $P passed, $F failed"; exit 0
fi

# The answers against rrbake query's raw coords ([...]) and hex words.
ans() { grep "^$1 =>" "$work/$first-$2.out" | sed 's/.* => //'; }
q=$("$rb" query "$work/roo/sample.roo" height 1024 1024 | sed -n 's/^ceiling: .*\[\(.*\)\]/\1/p')
a=$(ans "height 1024 1024" roo | sed -n 's/.* ceiling \([-0-9]*\).*/\1/p')
[ -n "$q" ] && [ "$q" = "$a" ] && pass "roo height: ceiling $a as rrbake query says" ||
    fail "roo height: emulate's ceiling '$a', rrbake query's '$q'"
q=$("$rb" query "$work/rmesh/sample.rmesh" ray 0 100 0 0 -1 0 10000 | sed -n 's/^distance: .*\[\(.*\)\]/\1/p')
a=$(ans "ray 0 100 0 0 -1 0 10000" rmesh | sed -n 's/.* distance \([-0-9]*\).*/\1/p')
[ -n "$q" ] && [ "$q" = "$a" ] && pass "rmesh ray: distance $a as rrbake query says" ||
    fail "rmesh ray: emulate's distance '$a', rrbake query's '$q'"
q=$("$rb" query "$work/rmf/sample.rmf" trace 0 0 600 0 0 -600 | sed -n 's/^fraction: .*\[\(.*\)\]/\1/p')
a=$(ans "trace 0 0 600 0 0 -600" rmf | sed -n 's/^fraction \(0x[0-9a-f]*\).*/\1/p')
[ -n "$q" ] && [ "$q" = "$a" ] && pass "rmf trace: fraction $a as rrbake query says" ||
    fail "rmf trace: emulate's fraction '$a', rrbake query's '$q'"

# --expect: the first board's answers are the expected ones of the last board.
last=$(for b in $boards; do [ "$b" != host ] && echo "$b"; done | tail -1)
"$rb" emulate --board "$last" "$work/roo/sample.roo" "$work/roo.q" --expect "$work/$first-roo.out" \
    > /dev/null 2> "$work/expect.err" && pass "$last: --expect $first's answers: equal" ||
    { fail "$last: --expect $first's answers"; cat "$work/expect.err"; }
sed '3s/wall [0-9]*/wall 999/' "$work/$first-roo.out" > "$work/wrong.expect"
"$rb" emulate --board "$last" "$work/roo/sample.roo" "$work/roo.q" --expect "$work/wrong.expect" \
    > /dev/null 2> "$work/wrong.err"
rc=$?
[ $rc = 1 ] && grep -q "wrong.expect:3: expected" "$work/wrong.err" &&
    pass "$last: --expect with a changed answer: status 1, line 3 named" ||
    { fail "$last: --expect with a changed answer: status $rc"; cat "$work/wrong.err"; }

"$rb" emulate --board "$first" "$work/roo/sample.roo" "$work/roo.q" --program "$work/none.elf" \
    > /dev/null 2> "$work/none.err"
rc=$?
[ $rc = 3 ] && grep -q "none.elf not found" "$work/none.err" &&
    pass "$first: a missing board program: status 3" || fail "$first: missing program: status $rc"
printf 'ray 0 100 0 0 -1 0 10000\nnearest light 0 0 0\n' > "$work/host-only.q"
"$rb" emulate --board "$first" "$work/rmesh/sample.rmesh" "$work/host-only.q" > /dev/null \
    2> "$work/host-only.err"
rc=$?
[ $rc = 2 ] && grep -q "host-only.q:2: .*found 'nearest'" "$work/host-only.err" &&
    pass "$first: a host-only query: status 2, file and line named" ||
    { fail "$first: host-only query: status $rc"; cat "$work/host-only.err"; }
echo "# emulate: $P passed, $F failed"
