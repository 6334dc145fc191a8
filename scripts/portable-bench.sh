#!/usr/bin/env bash
# A self-contained copy of the browser benchmark (scripts/bench.mjs) for a Linux x86-64
# machine that has none of its tools and no registry to fetch them from — a GPU server, say:
# Node, Playwright, Debian's Chromium headless shell with the libraries it links (glibc and
# the C++ runtime excepted: the target's own are used), a few fonts, the built site, the
# scripts, and run.sh, which puts them together there and runs the benchmark once per GPU
# mode (docs/performance.md, "On another machine").
#
#   scripts/portable-bench.sh OUT [PART_MIB]
#
# Needs a built site (npm run build:site), npm ci, and apt-get (Debian 12, as on this
# project's machines). OUT receives bundle.tar.xz, node.xz, chromium.deb and run.sh; with
# PART_MIB the three large files are cut into parts of at most that size (for a transfer with
# a size limit), which run.sh joins. On the target: copy OUT anywhere, then
#   bash run.sh            (MODES="vulkan egl default disabled" CASES=default,live by default)
# It writes bench-MODE.txt and .json next to itself, or under $OUT when that is set.
# With LIGHTHOUSE=1, OUT also receives lighthouse.tar.xz (Lighthouse and chrome-launcher with
# every module they load) and lighthouse.sh, which runs scripts/lighthouse.mjs there on the
# bundled site, alternated with older builds put beside it as old-*.tar.xz (each a tar of one
# built site folder): bash lighthouse.sh (RUNS=3 by default).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: scripts/portable-bench.sh OUT [PART_MIB]}
part=${2:-}
[ -f "$here/dist/index.html" ] || { echo "No dist/index.html: run npm run build:site first." >&2; exit 1; }
[ -d "$here/node_modules/playwright-core" ] || { echo "No node_modules: run npm ci first." >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Chromium's headless shell, the same version as the chromium package the tests use.
version=$(dpkg-query -W -f '${Version}' chromium 2>/dev/null || true)
(cd "$work" && apt-get download "chromium-headless-shell${version:+=$version}" >/dev/null 2>&1) ||
  { echo "apt-get download chromium-headless-shell failed." >&2; exit 1; }
mv "$work"/chromium-headless-shell_*.deb "$out/chromium.deb"
dpkg -x "$out/chromium.deb" "$work/hs"

b="$work/bundle"
mkdir -p "$b/chromium/locales" "$b/libs" "$b/fonts" "$b/node_modules/@playwright" "$b/gl"
# What the shell reads from chromium-common: ICU data, V8 snapshots, the Vulkan loader and
# SwiftShader (the software fallback), the locale.
for f in icudtl.dat snapshot_blob.bin v8_context_snapshot.bin libvulkan.so.1 libvk_swiftshader.so \
  vk_swiftshader_icd.json libEGL.so libGLESv2.so; do
  cp -L "/usr/lib/chromium/$f" "$b/chromium/"
done
cp /usr/lib/chromium/locales/en-US.pak "$b/chromium/locales/"
# The libraries the shell links, but not glibc's or the C++ runtime (the target's are newer),
# and the NSS modules it opens at run time.
ldd "$work/hs/usr/lib/chromium/chromium-headless-shell" | awk '$3 ~ /^\// {print $3}' |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so' |
  while read -r lib; do cp -L "$lib" "$b/libs/"; done
for n in libsoftokn3.so libfreebl3.so libfreeblpriv3.so libnssckbi.so libnssdbm3.so; do
  [ -e "/usr/lib/x86_64-linux-gnu/$n" ] && cp -L "/usr/lib/x86_64-linux-gnu/$n" "$b/libs/"
done
for f in DejaVuSans.ttf DejaVuSans-Bold.ttf DejaVuSansMono.ttf; do
  cp "/usr/share/fonts/truetype/dejavu/$f" "$b/fonts/"
done
# GL and Vulkan loaders (glvnd), unpacked into / on the target as its driver expects.
(cd "$b/gl" && apt-get download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 >/dev/null 2>&1)
cp -r "$here/node_modules/playwright-core" "$here/node_modules/playwright" "$b/node_modules/"
cp -r "$here/node_modules/@playwright/test" "$b/node_modules/@playwright/"
cp -r "$here/dist" "$b/dist"
mkdir -p "$b/repo"
cp -r "$here/scripts" "$here/package.json" "$b/repo/"
(cd "$b" && tar cf - .) | xz -T0 -9 > "$out/bundle.tar.xz"
xz -T0 -6 -c "$(command -v node)" > "$out/node.xz"

cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# Puts the portable benchmark together here and runs it (scripts/portable-bench.sh).
set -u
src=$(cd "$(dirname "$0")" && pwd)
S=${STAGE:-/tmp/cwndlab-bench}
rm -rf "$S" && mkdir -p "$S/hs"
for f in bundle.tar.xz node.xz chromium.deb; do
  if [ -e "$src/$f" ]; then cp "$src/$f" "$S/"; else cat "$src/$f".part-* > "$S/$f"; fi
done
cd "$S"
if command -v dpkg >/dev/null; then
  dpkg -x chromium.deb hs
else
  python3 - <<'PY'
import io, tarfile
d = open('chromium.deb', 'rb').read()
i = 8
while i < len(d):
    h = d[i:i + 60]
    size = int(h[48:58].decode().strip())
    if h[:16].decode().strip().startswith('data.tar'):
        tarfile.open(fileobj=io.BytesIO(d[i + 60:i + 60 + size])).extractall('hs')
    i += 60 + size + (size & 1)
PY
fi
xz -dc node.xz > node && chmod +x node
tar xJf bundle.tar.xz
cp hs/usr/lib/chromium/chromium-headless-shell hs/usr/lib/chromium/headless_*.pak chromium/
if [ -z "${NO_GL:-}" ] && [ "$(id -u)" = 0 ]; then
  for f in gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
mkdir -p fontcache
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s/fonts</dir><cachedir>%s/fontcache</cachedir></fontconfig>\n' "$S" "$S" > fonts/fonts.conf
ln -sfn "$S/node_modules" repo/node_modules
# The environment the bundle runs in, also for lighthouse.sh (which sources it).
{
  echo "export PATH=\"$S:\$PATH\" LD_LIBRARY_PATH=\"$S/libs\" FONTCONFIG_FILE=\"$S/fonts/fonts.conf\""
  echo "export CHROMIUM_PATH=\"$S/chromium/chromium-headless-shell\""
  # NVIDIA's Vulkan and EGL vendor files, where a driver mounted under /usr/local/nvidia has them.
  nv=/usr/local/nvidia/share
  [ -e "$nv/vulkan/icd.d/nvidia_icd.json" ] && echo "export VK_DRIVER_FILES=$nv/vulkan/icd.d/nvidia_icd.json"
  [ -e "$nv/glvnd/egl_vendor.d/10_nvidia.json" ] &&
    echo "export __EGL_VENDOR_LIBRARY_FILENAMES=$nv/glvnd/egl_vendor.d/10_nvidia.json"
} > "$S/env.sh"
. "$S/env.sh"
# MODES=none: put together only (lighthouse.sh).
[ "${MODES:-}" = none ] && exit 0
results=${OUT:-$src}
mkdir -p "$results"
echo "node $(node --version); $(nproc) cores; libraries missing: $(ldd "$CHROMIUM_PATH" | grep -c 'not found')"
cd repo
for g in ${MODES:-vulkan egl default disabled}; do
  echo "=== --gpu $g"
  timeout "${PER:-150}" node scripts/bench.mjs --server static --dist "$S/dist" --gpu "$g" \
    --cases "${CASES:-default,live}" --steps "${STEPS:-10}" --trace --trace-steps "${TRACE_STEPS:-30}" \
    --json "$results/bench-$g.json" > "$results/bench-$g.txt" 2>&1
  echo "exit $?"
  grep -v '^$' "$results/bench-$g.txt" | grep -v '^(start'
done
RUN
chmod +x "$out/run.sh"

if [ -n "${LIGHTHOUSE:-}" ]; then
  # The modules Lighthouse and chrome-launcher load, found by walking their dependencies.
  (cd "$here" && node -e '
    const path = require("path"), fs = require("fs"), seen = new Set();
    const find = (name, from) => {
      for (let d = from; ; d = path.dirname(d)) {
        const p = path.join(d, "node_modules", name, "package.json");
        if (fs.existsSync(p)) return path.dirname(p);
        if (path.dirname(d) === d) return null;
      }
    };
    const walk = (dir) => {
      if (!dir || seen.has(dir)) return;
      seen.add(dir);
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
      for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) walk(find(dep, dir));
    };
    for (const n of ["lighthouse", "chrome-launcher"]) walk(find(n, process.cwd()));
    console.log([...seen].map((d) => path.relative(process.cwd(), d)).join("\n"));
  ' > "$work/lighthouse-modules.txt" && tar cf - -T "$work/lighthouse-modules.txt") | xz -T0 -6 > "$out/lighthouse.tar.xz"
  cat > "$out/lighthouse.sh" <<'LH'
#!/usr/bin/env bash
# Lighthouse on this machine (scripts/portable-bench.sh LIGHTHOUSE=1): run.sh puts the bundle
# together (MODES=none: no benchmark), then scripts/lighthouse.mjs measures each older build
# beside this file (old-*.tar.xz) and the bundled one, alternated twice.
set -u
src=$(cd "$(dirname "$0")" && pwd)
S=${STAGE:-/tmp/cwndlab-bench}
STAGE=$S MODES=none bash "$src/run.sh"
cd "$S" && tar xJf "$src/lighthouse.tar.xz"
dists=()
for t in "$src"/old-*.tar.xz; do
  [ -e "$t" ] || continue
  d=$(tar tJf "$t" | head -1 | cut -d/ -f1)
  tar xJf "$t" && dists+=("$S/$d")
done
dists+=("$S/dist")
. "$S/env.sh"
cd repo
echo "node $(node --version); $(nproc) cores; $(uptime)"
for round in 1 2; do
  for d in "${dists[@]}"; do
    echo "== $d (round $round)"
    timeout "${PER:-200}" node scripts/lighthouse.mjs --dir "$d" --runs "${RUNS:-3}" 2>&1 |
      grep -E "mobile|desktop|performance|FCP|rror"
  done
done
LH
  chmod +x "$out/lighthouse.sh"
fi

if [ -n "$part" ]; then
  for f in bundle.tar.xz node.xz chromium.deb; do
    split -b "${part}M" -d "$out/$f" "$out/$f.part-"
    rm "$out/$f"
  done
fi
ls -l "$out"
