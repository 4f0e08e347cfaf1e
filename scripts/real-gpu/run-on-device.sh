#!/bin/bash
# Runs the bench page in a carried Chromium on a machine with a real GPU (the device tool of this
# workplace; see scripts/real-gpu/README.md for how the bundle is made and carried).
#   bash scripts/real-gpu/run-on-device.sh BUNDLE_DIR OUT_DIR [BACKENDS] [DEADLINE_S] [PLAN] [-- driver options]
# BUNDLE_DIR holds chromium.xz.part-* (the Chromium binary, xz, split), rest.tar.xz (its data files
# in chr/ and the shared libraries it links in libs/), dist.tar.xz (the built lab) and gl/*.deb (the
# GL/Vulkan loaders from Debian). Writes OUT_DIR/benchmarks.gpu.json and OUT_DIR/chromium.log.
set -u
B=$1; OUT=$2; BACKENDS=${3:-webgpu,wasm,webgl}; DEADLINE=${4:-480}; PLAN=${5:-full}
shift $(( $# < 5 ? $# : 5 )); [ "${1:-}" = "--" ] && shift  # the rest goes to bench_chromium.py
HERE=$(cd "$(dirname "$0")" && pwd)
T0=$(date +%s)
ls "$B"/chromium.xz.part-* >/dev/null 2>&1 || { echo "no chromium parts in $B (was the first call's machine given back?)"; exit 3; }
for f in "$B"/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
mkdir -p /opt/orch && cd /opt/orch || exit 1
cat "$B"/chromium.xz.part-* | xz -d -T0 > chr.bin || exit 1
tar -xJf "$B"/rest.tar.xz && tar -xJf "$B"/dist.tar.xz || exit 1
mv chr.bin chr/chromium && chmod +x chr/chromium
# Only the libraries this machine lacks: its own (newer) ones stay in charge of everything else.
mkdir -p extra
for l in libs/*; do n=$(basename "$l"); ldconfig -p | grep -q "^[[:space:]]*$n " || cp "$l" extra/; done
export LD_LIBRARY_PATH=/opt/orch/chr:/opt/orch/extra${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo "carried libraries used: $(ls extra | wc -l) of $(ls libs | wc -l)"
ldd chr/chromium | grep "not found"
ICD=$(ls /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json 2>/dev/null | head -1)
[ -n "$ICD" ] || ICD=$(find / -xdev -name 'nvidia_icd*.json' 2>/dev/null | head -1)
echo "Vulkan ICD: ${ICD:-none found}"
[ -n "$ICD" ] && export VK_DRIVER_FILES=$ICD VK_ICD_FILENAMES=$ICD
EGL=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f $EGL ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$EGL
# headless Chromium aborts ("Not implemented" in Skia's font manager) where fontconfig finds no font
printf '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>%s</dir><cachedir>/tmp/fc-cache</cachedir></fontconfig>\n' "$B/fonts" > /tmp/fonts.conf
export FONTCONFIG_FILE=/tmp/fonts.conf
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm --format=csv,noheader
echo "prepared in $(( $(date +%s) - T0 )) s"
python3 -u "$HERE/bench_chromium.py" --chromium /opt/orch/chr/chromium --dist /opt/orch/dist --out "$OUT/benchmarks.gpu.json" \
  --log "$OUT/chromium.log" --backends "$BACKENDS" --plan "$PLAN" --deadline $(( DEADLINE - ($(date +%s) - T0) )) "$@"
rc=$?
# the log can be large: keep its head and tail
if [ -f "$OUT/chromium.log" ]; then { head -c 400000 "$OUT/chromium.log"; echo; echo '[…]'; tail -c 400000 "$OUT/chromium.log"; } > "$OUT/chromium.log.cut"; mv "$OUT/chromium.log.cut" "$OUT/chromium.log"; fi
exit $rc
