#!/bin/bash
# Packs what run-on-device.sh needs into .gpu1/ and .gpu2/ (each under the device tool's 64 MiB a
# call, with the repository): Debian's Chromium binary (xz, split: its first part in .gpu1), its
# data files and the shared libraries it links (rest.tar.xz), the built lab (dist.tar.xz), the
# GL/Vulkan loader packages (gl/*.deb) and one font (headless Chromium aborts with none).
# Run from the repository root after `npm run build`; see scripts/real-gpu/README.md.
set -eu
C=/usr/lib/chromium
T=$(mktemp -d)
mkdir -p "$T/chr/locales" "$T/libs"
cp $C/chrome_100_percent.pak $C/chrome_200_percent.pak $C/chrome_crashpad_handler $C/icudtl.dat $C/libEGL.so $C/libGLESv2.so \
   $C/libvulkan.so.1 $C/resources.pak $C/snapshot_blob.bin $C/v8_context_snapshot.bin "$T/chr/"
cp $C/locales/en-US.pak "$T/chr/locales/"
# every library it links but glibc's own; the device uses only those it lacks
ldd $C/chromium | awk '$3 ~ /^\// {print $3}' | grep -v -E '/(libc|libm|libdl|libpthread|librt|libresolv|ld-linux[^/]*)\.so' | xargs -I{} cp -L {} "$T/libs/"
for l in libsoftokn3.so libfreebl3.so libfreeblpriv3.so libnssdbm3.so; do cp -L /usr/lib/x86_64-linux-gnu/$l "$T/libs/" 2>/dev/null || true; done
rm -rf .gpu1 .gpu2 && mkdir -p .gpu1 .gpu2/gl .gpu2/fonts
(cd "$T" && tar -cf - chr libs | xz -T0 -6 > "$OLDPWD/.gpu2/rest.tar.xz")
tar -cf - dist | xz -T0 -6 > .gpu2/dist.tar.xz
xz -T0 -9 -c $C/chromium > "$T/chromium.xz"
split -b 60000000 -d "$T/chromium.xz" "$T/chromium.xz.part-"
mv "$T/chromium.xz.part-00" .gpu1/ && mv "$T"/chromium.xz.part-* .gpu2/
o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
mkdir -p /tmp/amd64/partial && apt-get $o update >/dev/null && (cd .gpu2/gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf .gpu2/fonts/
rm -rf "$T"
du -sh .gpu1 .gpu2
