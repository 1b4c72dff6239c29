#!/bin/sh
# sh cli.sh, in an application with @x/cli installed: the command as the docs say to run it (`npx @x/cli`), with no
# registry and without json-schema-to-typescript. Prints what each step answered; exits 1 at the first that is wrong.
set -u
unset REGISTRY_URL
fail() { echo "FAIL: $*"; exit 1; }

npx --no-install @x/cli --help > help.txt 2>&1 || fail "npx @x/cli --help: $(cat help.txt)"
grep -q '^Usage: x-serde' help.txt || fail "npx @x/cli --help printed: $(head -3 help.txt)"
echo "npx @x/cli --help: $(head -1 help.txt)"

npx --no-install @x/cli inspect 000000000106752d31 > inspect.txt 2>&1 || fail "inspect: $(cat inspect.txt)"
grep -q '^id:       globalId 1$' inspect.txt && grep -q '^payload:  4 bytes$' inspect.txt ||
  fail "inspect printed: $(cat inspect.txt)"
echo "npx @x/cli inspect 000000000106752d31: $(tr '\n' ' ' < inspect.txt | cut -c1-120)"

status=0
npx --no-install @x/cli inspect zz > zz.txt 2>&1 || status=$?
[ "${status}" -eq 2 ] || fail "inspect zz exited ${status}: $(cat zz.txt)"
echo "npx @x/cli inspect zz: exit 2"

echo '{"title":"Order","type":"object","properties":{"id":{"type":"integer"}}}' > order.json
status=0
npx --no-install @x/cli codegen order.json > codegen.txt 2>&1 || status=$?
[ "${status}" -eq 2 ] && grep -q 'npm install --save-dev json-schema-to-typescript' codegen.txt ||
  fail "codegen of a JSON Schema without json-schema-to-typescript exited ${status}: $(cat codegen.txt)"
echo "codegen of a JSON Schema: exit 2, names npm install --save-dev json-schema-to-typescript"
