;; The training's hot kernels on tfjs-wasm's own heap (registered with tfjs in wasmKernels.ts): the
;; policy's dense layers forward and backward, a ReLU's gradient and the clipped Adam step. Each
;; output is computed in one fixed order with one rounding per product and per add — the order of
;; XNNPACK's gemm, which tfjs-wasm runs for matMul and _FusedMatMul, and of tfjs's elementwise ops —
;; so the values are the same bit for bit (test/wasmKernels.test.ts), and a seed trains the same
;; with them or without. Pointers are byte offsets into the imported memory (tfjs-wasm's). Compiled
;; by scripts/build-kernels.mjs into kernelsWasm.ts (4.4 KB: past the 4 KB that Chromium compiles
;; synchronously on a page's main thread, so the kernels run in workers and in Node, where the lab trains).

;; Weight and bias gradients: for row-major x [P, K] and dz [P, H] (f32), out [K, H] = xᵀ·dz and,
;; when bout ≠ 0, bout [H] = Σ_p dz[p], summed in p order from 0. Unlike tfjs-wasm's matMul(xᵀ, dz),
;; nothing is transposed or repacked first.
(module
  (import "env" "memory" (memory 0))

  ;; H a multiple of 8. Rows of p in chunks of 64 (the chunk of x and dz stays in cache while
  ;; every 4 × 8 tile of the output reads it); the tiles' partial sums wait in out between chunks.
  ;; With rows ≠ 0, row p of x is row rows[p] (int32) of x: the scorer's first layer, whose pairs
  ;; read their decision's state, gets W_s's gradient without the states gathered to the pairs first.
  (func (export "xtdz8") (param $x i32) (param $dz i32) (param $out i32) (param $bout i32) (param $P i32) (param $K i32) (param $H i32) (param $rows i32)
    (local $xk i32) (local $ri i32) (local $rowX i32) (local $rowD i32) (local $p0 i32) (local $p1 i32) (local $k0 i32) (local $h0 i32)
    (local $o0 i32) (local $o1 i32) (local $o2 i32) (local $o3 i32) (local $px i32) (local $pd i32) (local $end i32)
    (local $s v128) (local $d0 v128) (local $d1 v128)
    (local $a00 v128) (local $a01 v128) (local $a10 v128) (local $a11 v128)
    (local $a20 v128) (local $a21 v128) (local $a30 v128) (local $a31 v128)
    (local.set $rowX (i32.shl (local.get $K) (i32.const 2)))
    (local.set $rowD (i32.shl (local.get $H) (i32.const 2)))
    (memory.fill (local.get $out) (i32.const 0) (i32.mul (local.get $K) (local.get $rowD)))
    (if (local.get $bout) (then (memory.fill (local.get $bout) (i32.const 0) (local.get $rowD))))
    (block $chunksDone
      (loop $chunks
        (br_if $chunksDone (i32.ge_u (local.get $p0) (local.get $P)))
        (local.set $p1 (i32.add (local.get $p0) (i32.const 64)))
        (if (i32.gt_u (local.get $p1) (local.get $P)) (then (local.set $p1 (local.get $P))))
        ;; 4 rows of out at a time
        (local.set $k0 (i32.const 0))
        (block $k4Done
          (loop $k4
            (br_if $k4Done (i32.gt_u (i32.add (local.get $k0) (i32.const 4)) (local.get $K)))
            (local.set $h0 (i32.const 0))
            (loop $h
              (local.set $o0 (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $k0) (local.get $H)) (local.get $h0)) (i32.const 2))))
              (local.set $o1 (i32.add (local.get $o0) (local.get $rowD)))
              (local.set $o2 (i32.add (local.get $o1) (local.get $rowD)))
              (local.set $o3 (i32.add (local.get $o2) (local.get $rowD)))
              (local.set $a00 (v128.load (local.get $o0)))
              (local.set $a01 (v128.load offset=16 (local.get $o0)))
              (local.set $a10 (v128.load (local.get $o1)))
              (local.set $a11 (v128.load offset=16 (local.get $o1)))
              (local.set $a20 (v128.load (local.get $o2)))
              (local.set $a21 (v128.load offset=16 (local.get $o2)))
              (local.set $a30 (v128.load (local.get $o3)))
              (local.set $a31 (v128.load offset=16 (local.get $o3)))
              (if (local.get $rows)
                (then
                  (local.set $xk (i32.add (local.get $x) (i32.shl (local.get $k0) (i32.const 2))))
                  (local.set $ri (i32.add (local.get $rows) (i32.shl (local.get $p0) (i32.const 2))))
                  (local.set $pd (i32.add (local.get $dz) (i32.shl (i32.add (i32.mul (local.get $p0) (local.get $H)) (local.get $h0)) (i32.const 2))))
                  (local.set $end (i32.add (local.get $pd) (i32.mul (i32.sub (local.get $p1) (local.get $p0)) (local.get $rowD))))
                  (loop $pg
                    (local.set $px (i32.add (local.get $xk) (i32.mul (i32.load (local.get $ri)) (local.get $rowX))))
                    (local.set $d0 (v128.load (local.get $pd)))
                    (local.set $d1 (v128.load offset=16 (local.get $pd)))
                    (local.set $s (v128.load32_splat (local.get $px)))
                    (local.set $a00 (f32x4.add (local.get $a00) (f32x4.mul (local.get $s) (local.get $d0))))
                    (local.set $a01 (f32x4.add (local.get $a01) (f32x4.mul (local.get $s) (local.get $d1))))
                    (local.set $s (v128.load32_splat offset=4 (local.get $px)))
                    (local.set $a10 (f32x4.add (local.get $a10) (f32x4.mul (local.get $s) (local.get $d0))))
                    (local.set $a11 (f32x4.add (local.get $a11) (f32x4.mul (local.get $s) (local.get $d1))))
                    (local.set $s (v128.load32_splat offset=8 (local.get $px)))
                    (local.set $a20 (f32x4.add (local.get $a20) (f32x4.mul (local.get $s) (local.get $d0))))
                    (local.set $a21 (f32x4.add (local.get $a21) (f32x4.mul (local.get $s) (local.get $d1))))
                    (local.set $s (v128.load32_splat offset=12 (local.get $px)))
                    (local.set $a30 (f32x4.add (local.get $a30) (f32x4.mul (local.get $s) (local.get $d0))))
                    (local.set $a31 (f32x4.add (local.get $a31) (f32x4.mul (local.get $s) (local.get $d1))))
                    (local.set $pd (i32.add (local.get $pd) (local.get $rowD)))
                    (local.set $ri (i32.add (local.get $ri) (i32.const 4)))
                    (br_if $pg (i32.lt_u (local.get $pd) (local.get $end)))))
                (else
                  (local.set $px (i32.add (local.get $x) (i32.shl (i32.add (i32.mul (local.get $p0) (local.get $K)) (local.get $k0)) (i32.const 2))))
                  (local.set $pd (i32.add (local.get $dz) (i32.shl (i32.add (i32.mul (local.get $p0) (local.get $H)) (local.get $h0)) (i32.const 2))))
                  (local.set $end (i32.add (local.get $px) (i32.mul (i32.sub (local.get $p1) (local.get $p0)) (local.get $rowX))))
                  (loop $p
                    (local.set $d0 (v128.load (local.get $pd)))
                    (local.set $d1 (v128.load offset=16 (local.get $pd)))
                    (local.set $s (v128.load32_splat (local.get $px)))
                    (local.set $a00 (f32x4.add (local.get $a00) (f32x4.mul (local.get $s) (local.get $d0))))
                    (local.set $a01 (f32x4.add (local.get $a01) (f32x4.mul (local.get $s) (local.get $d1))))
                    (local.set $s (v128.load32_splat offset=4 (local.get $px)))
                    (local.set $a10 (f32x4.add (local.get $a10) (f32x4.mul (local.get $s) (local.get $d0))))
                    (local.set $a11 (f32x4.add (local.get $a11) (f32x4.mul (local.get $s) (local.get $d1))))
                    (local.set $s (v128.load32_splat offset=8 (local.get $px)))
                    (local.set $a20 (f32x4.add (local.get $a20) (f32x4.mul (local.get $s) (local.get $d0))))
                    (local.set $a21 (f32x4.add (local.get $a21) (f32x4.mul (local.get $s) (local.get $d1))))
                    (local.set $s (v128.load32_splat offset=12 (local.get $px)))
                    (local.set $a30 (f32x4.add (local.get $a30) (f32x4.mul (local.get $s) (local.get $d0))))
                    (local.set $a31 (f32x4.add (local.get $a31) (f32x4.mul (local.get $s) (local.get $d1))))
                    (local.set $px (i32.add (local.get $px) (local.get $rowX)))
                    (local.set $pd (i32.add (local.get $pd) (local.get $rowD)))
                    (br_if $p (i32.lt_u (local.get $px) (local.get $end))))))
              (v128.store (local.get $o0) (local.get $a00))
              (v128.store offset=16 (local.get $o0) (local.get $a01))
              (v128.store (local.get $o1) (local.get $a10))
              (v128.store offset=16 (local.get $o1) (local.get $a11))
              (v128.store (local.get $o2) (local.get $a20))
              (v128.store offset=16 (local.get $o2) (local.get $a21))
              (v128.store (local.get $o3) (local.get $a30))
              (v128.store offset=16 (local.get $o3) (local.get $a31))
              (local.set $h0 (i32.add (local.get $h0) (i32.const 8)))
              (br_if $h (i32.lt_u (local.get $h0) (local.get $H))))
            (local.set $k0 (i32.add (local.get $k0) (i32.const 4)))
            (br $k4)))
        ;; the last K mod 4 rows, one at a time
        (block $k1Done
          (loop $k1
            (br_if $k1Done (i32.ge_u (local.get $k0) (local.get $K)))
            (local.set $h0 (i32.const 0))
            (loop $h1
              (local.set $o0 (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $k0) (local.get $H)) (local.get $h0)) (i32.const 2))))
              (local.set $a00 (v128.load (local.get $o0)))
              (local.set $a01 (v128.load offset=16 (local.get $o0)))
              (if (local.get $rows)
                (then
                  (local.set $xk (i32.add (local.get $x) (i32.shl (local.get $k0) (i32.const 2))))
                  (local.set $ri (i32.add (local.get $rows) (i32.shl (local.get $p0) (i32.const 2))))
                  (local.set $pd (i32.add (local.get $dz) (i32.shl (i32.add (i32.mul (local.get $p0) (local.get $H)) (local.get $h0)) (i32.const 2))))
                  (local.set $end (i32.add (local.get $pd) (i32.mul (i32.sub (local.get $p1) (local.get $p0)) (local.get $rowD))))
                  (loop $p1g
                    (local.set $px (i32.add (local.get $xk) (i32.mul (i32.load (local.get $ri)) (local.get $rowX))))
                    (local.set $s (v128.load32_splat (local.get $px)))
                    (local.set $a00 (f32x4.add (local.get $a00) (f32x4.mul (local.get $s) (v128.load (local.get $pd)))))
                    (local.set $a01 (f32x4.add (local.get $a01) (f32x4.mul (local.get $s) (v128.load offset=16 (local.get $pd)))))
                    (local.set $pd (i32.add (local.get $pd) (local.get $rowD)))
                    (local.set $ri (i32.add (local.get $ri) (i32.const 4)))
                    (br_if $p1g (i32.lt_u (local.get $pd) (local.get $end)))))
                (else
                  (local.set $px (i32.add (local.get $x) (i32.shl (i32.add (i32.mul (local.get $p0) (local.get $K)) (local.get $k0)) (i32.const 2))))
                  (local.set $pd (i32.add (local.get $dz) (i32.shl (i32.add (i32.mul (local.get $p0) (local.get $H)) (local.get $h0)) (i32.const 2))))
                  (local.set $end (i32.add (local.get $px) (i32.mul (i32.sub (local.get $p1) (local.get $p0)) (local.get $rowX))))
                  (loop $p1loop
                    (local.set $s (v128.load32_splat (local.get $px)))
                    (local.set $a00 (f32x4.add (local.get $a00) (f32x4.mul (local.get $s) (v128.load (local.get $pd)))))
                    (local.set $a01 (f32x4.add (local.get $a01) (f32x4.mul (local.get $s) (v128.load offset=16 (local.get $pd)))))
                    (local.set $px (i32.add (local.get $px) (local.get $rowX)))
                    (local.set $pd (i32.add (local.get $pd) (local.get $rowD)))
                    (br_if $p1loop (i32.lt_u (local.get $px) (local.get $end))))))
              (v128.store (local.get $o0) (local.get $a00))
              (v128.store offset=16 (local.get $o0) (local.get $a01))
              (local.set $h0 (i32.add (local.get $h0) (i32.const 8)))
              (br_if $h1 (i32.lt_u (local.get $h0) (local.get $H))))
            (local.set $k0 (i32.add (local.get $k0) (i32.const 1)))
            (br $k1)))
        ;; the bias gradient: Σ_p dz[p] (1·dz is dz exactly, so a sum of ones·dz in the same order)
        (if (local.get $bout)
          (then
            (local.set $h0 (i32.const 0))
            (loop $hb
              (local.set $o0 (i32.add (local.get $bout) (i32.shl (local.get $h0) (i32.const 2))))
              (local.set $a00 (v128.load (local.get $o0)))
              (local.set $a01 (v128.load offset=16 (local.get $o0)))
              (local.set $pd (i32.add (local.get $dz) (i32.shl (i32.add (i32.mul (local.get $p0) (local.get $H)) (local.get $h0)) (i32.const 2))))
              (local.set $end (i32.add (local.get $pd) (i32.mul (i32.sub (local.get $p1) (local.get $p0)) (local.get $rowD))))
              (loop $pb
                (local.set $a00 (f32x4.add (local.get $a00) (v128.load (local.get $pd))))
                (local.set $a01 (f32x4.add (local.get $a01) (v128.load offset=16 (local.get $pd))))
                (local.set $pd (i32.add (local.get $pd) (local.get $rowD)))
                (br_if $pb (i32.lt_u (local.get $pd) (local.get $end))))
              (v128.store (local.get $o0) (local.get $a00))
              (v128.store offset=16 (local.get $o0) (local.get $a01))
              (local.set $h0 (i32.add (local.get $h0) (i32.const 8)))
              (br_if $hb (i32.lt_u (local.get $h0) (local.get $H))))))
        (local.set $p0 (local.get $p1))
        (br $chunks))))

  ;; H = 1 (an output layer): out [K] = Σ_p x[p]·dz[p], four lanes of k at a time, 16 k per pass over p.
  (func (export "xtdz1") (param $x i32) (param $dz i32) (param $out i32) (param $bout i32) (param $P i32) (param $K i32)
    (local $rowX i32) (local $k0 i32) (local $px i32) (local $pd i32) (local $end i32)
    (local $s v128) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $f f32)
    (local.set $rowX (i32.shl (local.get $K) (i32.const 2)))
    (local.set $end (i32.add (local.get $dz) (i32.shl (local.get $P) (i32.const 2))))
    (block $k16Done
      (loop $k16
        (br_if $k16Done (i32.gt_u (i32.add (local.get $k0) (i32.const 16)) (local.get $K)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $px (i32.add (local.get $x) (i32.shl (local.get $k0) (i32.const 2))))
        (local.set $pd (local.get $dz))
        (block $empty
          (br_if $empty (i32.eqz (local.get $P)))
          (loop $p
            (local.set $s (v128.load32_splat (local.get $pd)))
            (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load (local.get $px)) (local.get $s))))
            (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (v128.load offset=16 (local.get $px)) (local.get $s))))
            (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (v128.load offset=32 (local.get $px)) (local.get $s))))
            (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (v128.load offset=48 (local.get $px)) (local.get $s))))
            (local.set $px (i32.add (local.get $px) (local.get $rowX)))
            (local.set $pd (i32.add (local.get $pd) (i32.const 4)))
            (br_if $p (i32.lt_u (local.get $pd) (local.get $end)))))
        (local.set $px (i32.add (local.get $out) (i32.shl (local.get $k0) (i32.const 2))))
        (v128.store (local.get $px) (local.get $a0))
        (v128.store offset=16 (local.get $px) (local.get $a1))
        (v128.store offset=32 (local.get $px) (local.get $a2))
        (v128.store offset=48 (local.get $px) (local.get $a3))
        (local.set $k0 (i32.add (local.get $k0) (i32.const 16)))
        (br $k16)))
    ;; the rest of k, one at a time
    (block $kDone
      (loop $k
        (br_if $kDone (i32.ge_u (local.get $k0) (local.get $K)))
        (local.set $f (f32.const 0))
        (local.set $px (i32.add (local.get $x) (i32.shl (local.get $k0) (i32.const 2))))
        (local.set $pd (local.get $dz))
        (block $empty1
          (br_if $empty1 (i32.eqz (local.get $P)))
          (loop $p1
            (local.set $f (f32.add (local.get $f) (f32.mul (f32.load (local.get $px)) (f32.load (local.get $pd)))))
            (local.set $px (i32.add (local.get $px) (local.get $rowX)))
            (local.set $pd (i32.add (local.get $pd) (i32.const 4)))
            (br_if $p1 (i32.lt_u (local.get $pd) (local.get $end)))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $k0) (i32.const 2))) (local.get $f))
        (local.set $k0 (i32.add (local.get $k0) (i32.const 1)))
        (br $k)))
    ;; the bias gradient, Σ_p dz[p]
    (if (local.get $bout)
      (then
        (local.set $f (f32.const 0))
        (local.set $pd (local.get $dz))
        (block $emptyB
          (br_if $emptyB (i32.eqz (local.get $P)))
          (loop $pb
            (local.set $f (f32.add (local.get $f) (f32.load (local.get $pd))))
            (local.set $pd (i32.add (local.get $pd) (i32.const 4)))
            (br_if $pb (i32.lt_u (local.get $pd) (local.get $end)))))
        (f32.store (local.get $bout) (local.get $f)))))

  ;; A dense layer's forward for H a multiple of 8: out [M, H] = act(x [M, K]·w [K, H] + bias), bias
  ;; 0 for none. With add ≠ 0, row rowIdx[m] (int32) of add [·, H] is added after the product and
  ;; before the activation (the scorer's first layer: tools·W_t + its decision's state part). Each
  ;; output is bias + Σ_k x·w in k order, one rounding per product and per add, then the added
  ;; row, then max(0, ·) — XNNPACK's gemm order (with its bias first), so tfjs-wasm's
  ;; _FusedMatMul, matMul and the add give the same values bit for bit.
  (func (export "dense8") (param $x i32) (param $w i32) (param $bias i32) (param $out i32) (param $M i32) (param $K i32) (param $H i32) (param $relu i32) (param $add i32) (param $rowIdx i32)
    (local $rowX i32) (local $rowO i32) (local $p0 i32) (local $h0 i32) (local $pw i32) (local $pa i32) (local $po i32) (local $end i32)
    (local $px0 i32) (local $px1 i32) (local $px2 i32) (local $px3 i32)
    (local $s v128) (local $w0 v128) (local $w1 v128) (local $b0 v128) (local $b1 v128) (local $zero v128)
    (local $a00 v128) (local $a01 v128) (local $a10 v128) (local $a11 v128) (local $a20 v128) (local $a21 v128) (local $a30 v128) (local $a31 v128)
    (local.set $rowX (i32.shl (local.get $K) (i32.const 2)))
    (local.set $rowO (i32.shl (local.get $H) (i32.const 2)))
    ;; 4 rows at a time
    (block $r4Done
      (loop $r4
        (br_if $r4Done (i32.gt_u (i32.add (local.get $p0) (i32.const 4)) (local.get $M)))
            (local.set $h0 (i32.const 0))
            (loop $h4
              (if (local.get $bias)
                (then
                  (local.set $b0 (v128.load (i32.add (local.get $bias) (i32.shl (local.get $h0) (i32.const 2)))))
                  (local.set $b1 (v128.load offset=16 (i32.add (local.get $bias) (i32.shl (local.get $h0) (i32.const 2))))))
                (else
                  (local.set $b0 (local.get $zero))
                  (local.set $b1 (local.get $zero))))
              ;; 4 row(s) × 8 columns
              (local.set $a00 (local.get $b0))
              (local.set $a01 (local.get $b1))
              (local.set $a10 (local.get $b0))
              (local.set $a11 (local.get $b1))
              (local.set $a20 (local.get $b0))
              (local.set $a21 (local.get $b1))
              (local.set $a30 (local.get $b0))
              (local.set $a31 (local.get $b1))
              (local.set $pw (i32.add (local.get $w) (i32.shl (local.get $h0) (i32.const 2))))
              (local.set $px0 (i32.add (local.get $x) (i32.mul (local.get $p0) (local.get $rowX))))
              (local.set $px1 (i32.add (local.get $px0) (local.get $rowX)))
              (local.set $px2 (i32.add (local.get $px1) (local.get $rowX)))
              (local.set $px3 (i32.add (local.get $px2) (local.get $rowX)))
              (local.set $end (i32.add (local.get $px0) (local.get $rowX)))
              (block $kDone4
                (br_if $kDone4 (i32.eqz (local.get $K)))
                (loop $k4
                  (local.set $w0 (v128.load (local.get $pw)))
                  (local.set $w1 (v128.load offset=16 (local.get $pw)))
                  (local.set $s (v128.load32_splat (local.get $px0)))
                  (local.set $a00 (f32x4.add (local.get $a00) (f32x4.mul (local.get $s) (local.get $w0))))
                  (local.set $a01 (f32x4.add (local.get $a01) (f32x4.mul (local.get $s) (local.get $w1))))
                  (local.set $s (v128.load32_splat (local.get $px1)))
                  (local.set $a10 (f32x4.add (local.get $a10) (f32x4.mul (local.get $s) (local.get $w0))))
                  (local.set $a11 (f32x4.add (local.get $a11) (f32x4.mul (local.get $s) (local.get $w1))))
                  (local.set $s (v128.load32_splat (local.get $px2)))
                  (local.set $a20 (f32x4.add (local.get $a20) (f32x4.mul (local.get $s) (local.get $w0))))
                  (local.set $a21 (f32x4.add (local.get $a21) (f32x4.mul (local.get $s) (local.get $w1))))
                  (local.set $s (v128.load32_splat (local.get $px3)))
                  (local.set $a30 (f32x4.add (local.get $a30) (f32x4.mul (local.get $s) (local.get $w0))))
                  (local.set $a31 (f32x4.add (local.get $a31) (f32x4.mul (local.get $s) (local.get $w1))))
                  (local.set $px0 (i32.add (local.get $px0) (i32.const 4)))
                  (local.set $px1 (i32.add (local.get $px1) (i32.const 4)))
                  (local.set $px2 (i32.add (local.get $px2) (i32.const 4)))
                  (local.set $px3 (i32.add (local.get $px3) (i32.const 4)))
                  (local.set $pw (i32.add (local.get $pw) (local.get $rowO)))
                  (br_if $k4 (i32.lt_u (local.get $px0) (local.get $end)))))
              (if (local.get $add)
                (then
                  (local.set $pa (i32.add (local.get $add) (i32.add (i32.mul (i32.load (i32.add (local.get $rowIdx) (i32.shl (i32.add (local.get $p0) (i32.const 0)) (i32.const 2)))) (local.get $rowO)) (i32.shl (local.get $h0) (i32.const 2)))))
                  (local.set $a00 (f32x4.add (local.get $a00) (v128.load (local.get $pa))))
                  (local.set $a01 (f32x4.add (local.get $a01) (v128.load offset=16 (local.get $pa))))
                  (local.set $pa (i32.add (local.get $add) (i32.add (i32.mul (i32.load (i32.add (local.get $rowIdx) (i32.shl (i32.add (local.get $p0) (i32.const 1)) (i32.const 2)))) (local.get $rowO)) (i32.shl (local.get $h0) (i32.const 2)))))
                  (local.set $a10 (f32x4.add (local.get $a10) (v128.load (local.get $pa))))
                  (local.set $a11 (f32x4.add (local.get $a11) (v128.load offset=16 (local.get $pa))))
                  (local.set $pa (i32.add (local.get $add) (i32.add (i32.mul (i32.load (i32.add (local.get $rowIdx) (i32.shl (i32.add (local.get $p0) (i32.const 2)) (i32.const 2)))) (local.get $rowO)) (i32.shl (local.get $h0) (i32.const 2)))))
                  (local.set $a20 (f32x4.add (local.get $a20) (v128.load (local.get $pa))))
                  (local.set $a21 (f32x4.add (local.get $a21) (v128.load offset=16 (local.get $pa))))
                  (local.set $pa (i32.add (local.get $add) (i32.add (i32.mul (i32.load (i32.add (local.get $rowIdx) (i32.shl (i32.add (local.get $p0) (i32.const 3)) (i32.const 2)))) (local.get $rowO)) (i32.shl (local.get $h0) (i32.const 2)))))
                  (local.set $a30 (f32x4.add (local.get $a30) (v128.load (local.get $pa))))
                  (local.set $a31 (f32x4.add (local.get $a31) (v128.load offset=16 (local.get $pa))))
                ))
              (if (local.get $relu)
                (then
                  (local.set $a00 (f32x4.pmax (local.get $zero) (local.get $a00)))
                  (local.set $a01 (f32x4.pmax (local.get $zero) (local.get $a01)))
                  (local.set $a10 (f32x4.pmax (local.get $zero) (local.get $a10)))
                  (local.set $a11 (f32x4.pmax (local.get $zero) (local.get $a11)))
                  (local.set $a20 (f32x4.pmax (local.get $zero) (local.get $a20)))
                  (local.set $a21 (f32x4.pmax (local.get $zero) (local.get $a21)))
                  (local.set $a30 (f32x4.pmax (local.get $zero) (local.get $a30)))
                  (local.set $a31 (f32x4.pmax (local.get $zero) (local.get $a31)))
                ))
              (local.set $po (i32.add (local.get $out) (i32.add (i32.mul (local.get $p0) (local.get $rowO)) (i32.shl (local.get $h0) (i32.const 2)))))
              (v128.store (local.get $po) (local.get $a00))
              (v128.store offset=16 (local.get $po) (local.get $a01))
              (local.set $po (i32.add (local.get $po) (local.get $rowO)))
              (v128.store (local.get $po) (local.get $a10))
              (v128.store offset=16 (local.get $po) (local.get $a11))
              (local.set $po (i32.add (local.get $po) (local.get $rowO)))
              (v128.store (local.get $po) (local.get $a20))
              (v128.store offset=16 (local.get $po) (local.get $a21))
              (local.set $po (i32.add (local.get $po) (local.get $rowO)))
              (v128.store (local.get $po) (local.get $a30))
              (v128.store offset=16 (local.get $po) (local.get $a31))
              (local.set $h0 (i32.add (local.get $h0) (i32.const 8)))
              (br_if $h4 (i32.lt_u (local.get $h0) (local.get $H))))
        (local.set $p0 (i32.add (local.get $p0) (i32.const 4)))
        (br $r4)))
    ;; the last M mod 4 rows, one at a time
    (block $r1Done
      (loop $r1
        (br_if $r1Done (i32.ge_u (local.get $p0) (local.get $M)))
            (local.set $h0 (i32.const 0))
            (loop $h1
              (if (local.get $bias)
                (then
                  (local.set $b0 (v128.load (i32.add (local.get $bias) (i32.shl (local.get $h0) (i32.const 2)))))
                  (local.set $b1 (v128.load offset=16 (i32.add (local.get $bias) (i32.shl (local.get $h0) (i32.const 2))))))
                (else
                  (local.set $b0 (local.get $zero))
                  (local.set $b1 (local.get $zero))))
              ;; 1 row(s) × 8 columns
              (local.set $a00 (local.get $b0))
              (local.set $a01 (local.get $b1))
              (local.set $pw (i32.add (local.get $w) (i32.shl (local.get $h0) (i32.const 2))))
              (local.set $px0 (i32.add (local.get $x) (i32.mul (local.get $p0) (local.get $rowX))))
              (local.set $end (i32.add (local.get $px0) (local.get $rowX)))
              (block $kDone1
                (br_if $kDone1 (i32.eqz (local.get $K)))
                (loop $k1
                  (local.set $w0 (v128.load (local.get $pw)))
                  (local.set $w1 (v128.load offset=16 (local.get $pw)))
                  (local.set $s (v128.load32_splat (local.get $px0)))
                  (local.set $a00 (f32x4.add (local.get $a00) (f32x4.mul (local.get $s) (local.get $w0))))
                  (local.set $a01 (f32x4.add (local.get $a01) (f32x4.mul (local.get $s) (local.get $w1))))
                  (local.set $px0 (i32.add (local.get $px0) (i32.const 4)))
                  (local.set $pw (i32.add (local.get $pw) (local.get $rowO)))
                  (br_if $k1 (i32.lt_u (local.get $px0) (local.get $end)))))
              (if (local.get $add)
                (then
                  (local.set $pa (i32.add (local.get $add) (i32.add (i32.mul (i32.load (i32.add (local.get $rowIdx) (i32.shl (i32.add (local.get $p0) (i32.const 0)) (i32.const 2)))) (local.get $rowO)) (i32.shl (local.get $h0) (i32.const 2)))))
                  (local.set $a00 (f32x4.add (local.get $a00) (v128.load (local.get $pa))))
                  (local.set $a01 (f32x4.add (local.get $a01) (v128.load offset=16 (local.get $pa))))
                ))
              (if (local.get $relu)
                (then
                  (local.set $a00 (f32x4.pmax (local.get $zero) (local.get $a00)))
                  (local.set $a01 (f32x4.pmax (local.get $zero) (local.get $a01)))
                ))
              (local.set $po (i32.add (local.get $out) (i32.add (i32.mul (local.get $p0) (local.get $rowO)) (i32.shl (local.get $h0) (i32.const 2)))))
              (v128.store (local.get $po) (local.get $a00))
              (v128.store offset=16 (local.get $po) (local.get $a01))
              (local.set $h0 (i32.add (local.get $h0) (i32.const 8)))
              (br_if $h1 (i32.lt_u (local.get $h0) (local.get $H))))
        (local.set $p0 (i32.add (local.get $p0) (i32.const 1)))
        (br $r1))))

  ;; An output layer's forward (H = 1): out [M] = bias + Σ_k x[m, k]·w[k], k in order from the bias
  ;; (XNNPACK's gemm order, which computes 8 columns for this one). Four rows at a time: a 4 × 4 block
  ;; of x is transposed in registers so that each lane is a row and k runs down the adds.
  (func (export "dense1") (param $x i32) (param $w i32) (param $bias i32) (param $out i32) (param $M i32) (param $K i32)
    (local $rowX i32) (local $m0 i32) (local $k i32) (local $K4 i32) (local $p i32) (local $pw i32)
    (local $r0 v128) (local $r1 v128) (local $r2 v128) (local $r3 v128) (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (local $acc v128) (local $b f32) (local $f f32)
    (local.set $rowX (i32.shl (local.get $K) (i32.const 2)))
    (local.set $K4 (i32.and (local.get $K) (i32.const -4)))
    (local.set $b (f32.load (local.get $bias)))
    (block $r4Done
      (loop $r4
        (br_if $r4Done (i32.gt_u (i32.add (local.get $m0) (i32.const 4)) (local.get $M)))
        (local.set $acc (f32x4.splat (local.get $b)))
        (local.set $p (i32.add (local.get $x) (i32.mul (local.get $m0) (local.get $rowX))))
        (local.set $pw (local.get $w))
        (local.set $k (i32.const 0))
        (block $k4Done
          (loop $k4
            (br_if $k4Done (i32.ge_u (local.get $k) (local.get $K4)))
            (local.set $r0 (v128.load (local.get $p)))
            (local.set $r1 (v128.load (i32.add (local.get $p) (local.get $rowX))))
            (local.set $r2 (v128.load (i32.add (local.get $p) (i32.shl (local.get $rowX) (i32.const 1)))))
            (local.set $r3 (v128.load (i32.add (local.get $p) (i32.mul (local.get $rowX) (i32.const 3)))))
            (local.set $t0 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $r0) (local.get $r1)))
            (local.set $t1 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $r0) (local.get $r1)))
            (local.set $t2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $r2) (local.get $r3)))
            (local.set $t3 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $r2) (local.get $r3)))
            (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t0) (local.get $t2)) (v128.load32_splat (local.get $pw)))))
            (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t0) (local.get $t2)) (v128.load32_splat offset=4 (local.get $pw)))))
            (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t1) (local.get $t3)) (v128.load32_splat offset=8 (local.get $pw)))))
            (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t1) (local.get $t3)) (v128.load32_splat offset=12 (local.get $pw)))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $pw (i32.add (local.get $pw) (i32.const 16)))
            (local.set $k (i32.add (local.get $k) (i32.const 4)))
            (br $k4)))
        ;; the last K mod 4 columns of x, one at a time
        (block $k1Done
          (loop $k1
            (br_if $k1Done (i32.ge_u (local.get $k) (local.get $K)))
            (local.set $r0 (v128.load32_splat (local.get $p)))
            (local.set $r0 (f32x4.replace_lane 1 (local.get $r0) (f32.load (i32.add (local.get $p) (local.get $rowX)))))
            (local.set $r0 (f32x4.replace_lane 2 (local.get $r0) (f32.load (i32.add (local.get $p) (i32.shl (local.get $rowX) (i32.const 1))))))
            (local.set $r0 (f32x4.replace_lane 3 (local.get $r0) (f32.load (i32.add (local.get $p) (i32.mul (local.get $rowX) (i32.const 3))))))
            (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $r0) (v128.load32_splat (local.get $pw)))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $pw (i32.add (local.get $pw) (i32.const 4)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $k1)))
        (v128.store (i32.add (local.get $out) (i32.shl (local.get $m0) (i32.const 2))) (local.get $acc))
        (local.set $m0 (i32.add (local.get $m0) (i32.const 4)))
        (br $r4)))
    ;; the last M mod 4 rows, one at a time
    (block $r1Done
      (loop $r1
        (br_if $r1Done (i32.ge_u (local.get $m0) (local.get $M)))
        (local.set $f (local.get $b))
        (local.set $p (i32.add (local.get $x) (i32.mul (local.get $m0) (local.get $rowX))))
        (local.set $k (i32.const 0))
        (block $kDone
          (loop $k
            (br_if $kDone (i32.ge_u (local.get $k) (local.get $K)))
            (local.set $f (f32.add (local.get $f) (f32.mul (f32.load (i32.add (local.get $p) (i32.shl (local.get $k) (i32.const 2)))) (f32.load (i32.add (local.get $w) (i32.shl (local.get $k) (i32.const 2)))))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $k)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $m0) (i32.const 2))) (local.get $f))
        (local.set $m0 (i32.add (local.get $m0) (i32.const 1)))
        (br $r1))))

  ;; A ReLU's gradient: out = dy · step(y), step(y) = 1 where y > 0, NaN where y is NaN, else 0 (tfjs's
  ;; Step), so the values are tfjs's mul(dy, step(y)) in one pass instead of two.
  (func (export "reluGrad") (param $dy i32) (param $y i32) (param $out i32) (param $n i32)
    (local $i i32) (local $n4 i32) (local $v v128) (local $s v128) (local $f f32)
    (local.set $n4 (i32.and (local.get $n) (i32.const -4)))
    (block $done4
      (loop $l4
        (br_if $done4 (i32.ge_u (local.get $i) (local.get $n4)))
        (local.set $v (v128.load (i32.add (local.get $y) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $s (v128.or
          (v128.and (f32x4.gt (local.get $v) (v128.const f32x4 0 0 0 0)) (v128.const f32x4 1 1 1 1))
          (v128.and (f32x4.ne (local.get $v) (local.get $v)) (local.get $v))))
        (v128.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32x4.mul (v128.load (i32.add (local.get $dy) (i32.shl (local.get $i) (i32.const 2)))) (local.get $s)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $l4)))
    (block $done1
      (loop $l1
        (br_if $done1 (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $f (f32.load (i32.add (local.get $y) (i32.shl (local.get $i) (i32.const 2)))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.mul (f32.load (i32.add (local.get $dy) (i32.shl (local.get $i) (i32.const 2))))
            (select (f32.const 1) (select (local.get $f) (f32.const 0) (f32.ne (local.get $f) (local.get $f))) (f32.gt (local.get $f) (f32.const 0)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l1))))

  ;; The optimizer's step over all the weights (flatAdam.ts), as tfjs computes it op by op: the global
  ;; norm √(Σ g²) in the weights' order, g·min(1, maxNorm / (norm + 1e-6)), then Adam — m' = m·β1 +
  ;; g·(1 − β1), v' = v·β2 + g²·(1 − β2), w' = (m'/bc1) / (√(v'/bc2) + ε) · (−lr) + w — every operation
  ;; rounded to f32 in the same order, so the new weights are the same bit for bit. `table` holds, per
  ;; weight tensor, [its gradient, the weight, the new weight, its size]; m, v and their new values
  ;; are flat over the tensors in that order.
  (func (export "adam") (param $table i32) (param $n i32) (param $m i32) (param $v i32) (param $mOut i32) (param $vOut i32) (param $normOut i32)
        (param $maxNorm f32) (param $b1 f32) (param $omb1 f32) (param $b2 f32) (param $omb2 f32) (param $bc1 f32) (param $bc2 f32) (param $eps f32) (param $negLr f32)
    (local $t i32) (local $g i32) (local $w i32) (local $o i32) (local $size i32) (local $j i32) (local $f i32) (local $size4 i32)
    (local $sum f32) (local $x f32) (local $clip f32) (local $mm f32) (local $vv f32)
    (local $vg v128) (local $vm v128) (local $vv4 v128)
    ;; Σ g², one tensor after another, one element at a time (as tfjs's Sum of the concatenated squares)
    (local.set $t (local.get $table))
    (block $sumDone
      (loop $sumT
        (br_if $sumDone (i32.ge_u (local.get $t) (i32.add (local.get $table) (i32.shl (local.get $n) (i32.const 4)))))
        (local.set $g (i32.load (local.get $t)))
        (local.set $size (i32.load offset=12 (local.get $t)))
        (local.set $j (i32.const 0))
        (block $sDone
          (loop $s
            (br_if $sDone (i32.ge_u (local.get $j) (local.get $size)))
            (local.set $x (f32.load (i32.add (local.get $g) (i32.shl (local.get $j) (i32.const 2)))))
            (local.set $sum (f32.add (local.get $sum) (f32.mul (local.get $x) (local.get $x))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $s)))
        (local.set $t (i32.add (local.get $t) (i32.const 16)))
        (br $sumT)))
    (local.set $x (f32.sqrt (local.get $sum)))
    (f32.store (local.get $normOut) (local.get $x))
    (local.set $clip (f32.div (local.get $maxNorm) (f32.add (local.get $x) (f32.const 1e-6))))
    ;; min(1, q) as tfjs-wasm's Minimum: 1 where q is NaN
    (local.set $clip (select (local.get $clip) (f32.const 1) (f32.lt (local.get $clip) (f32.const 1))))
    ;; the step, four lanes at a time, then each tensor's tail
    (local.set $t (local.get $table))
    (block $stepDone
      (loop $stepT
        (br_if $stepDone (i32.ge_u (local.get $t) (i32.add (local.get $table) (i32.shl (local.get $n) (i32.const 4)))))
        (local.set $g (i32.load (local.get $t)))
        (local.set $w (i32.load offset=4 (local.get $t)))
        (local.set $o (i32.load offset=8 (local.get $t)))
        (local.set $size (i32.load offset=12 (local.get $t)))
        (local.set $size4 (i32.and (local.get $size) (i32.const -4)))
        (local.set $j (i32.const 0))
        (block $v4Done
          (loop $v4
            (br_if $v4Done (i32.ge_u (local.get $j) (local.get $size4)))
            (local.set $vg (f32x4.mul (v128.load (i32.add (local.get $g) (i32.shl (local.get $j) (i32.const 2)))) (f32x4.splat (local.get $clip))))
            (local.set $vm (f32x4.add
              (f32x4.mul (v128.load (i32.add (local.get $m) (i32.shl (i32.add (local.get $f) (local.get $j)) (i32.const 2)))) (f32x4.splat (local.get $b1)))
              (f32x4.mul (local.get $vg) (f32x4.splat (local.get $omb1)))))
            (local.set $vv4 (f32x4.add
              (f32x4.mul (v128.load (i32.add (local.get $v) (i32.shl (i32.add (local.get $f) (local.get $j)) (i32.const 2)))) (f32x4.splat (local.get $b2)))
              (f32x4.mul (f32x4.mul (local.get $vg) (local.get $vg)) (f32x4.splat (local.get $omb2)))))
            (v128.store (i32.add (local.get $mOut) (i32.shl (i32.add (local.get $f) (local.get $j)) (i32.const 2))) (local.get $vm))
            (v128.store (i32.add (local.get $vOut) (i32.shl (i32.add (local.get $f) (local.get $j)) (i32.const 2))) (local.get $vv4))
            (v128.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2)))
              (f32x4.add
                (f32x4.mul
                  (f32x4.div
                    (f32x4.div (local.get $vm) (f32x4.splat (local.get $bc1)))
                    (f32x4.add (f32x4.sqrt (f32x4.div (local.get $vv4) (f32x4.splat (local.get $bc2)))) (f32x4.splat (local.get $eps))))
                  (f32x4.splat (local.get $negLr)))
                (v128.load (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $j (i32.add (local.get $j) (i32.const 4)))
            (br $v4)))
        (block $v1Done
          (loop $v1
            (br_if $v1Done (i32.ge_u (local.get $j) (local.get $size)))
            (local.set $x (f32.mul (f32.load (i32.add (local.get $g) (i32.shl (local.get $j) (i32.const 2)))) (local.get $clip)))
            (local.set $mm (f32.add
              (f32.mul (f32.load (i32.add (local.get $m) (i32.shl (i32.add (local.get $f) (local.get $j)) (i32.const 2)))) (local.get $b1))
              (f32.mul (local.get $x) (local.get $omb1))))
            (local.set $vv (f32.add
              (f32.mul (f32.load (i32.add (local.get $v) (i32.shl (i32.add (local.get $f) (local.get $j)) (i32.const 2)))) (local.get $b2))
              (f32.mul (f32.mul (local.get $x) (local.get $x)) (local.get $omb2))))
            (f32.store (i32.add (local.get $mOut) (i32.shl (i32.add (local.get $f) (local.get $j)) (i32.const 2))) (local.get $mm))
            (f32.store (i32.add (local.get $vOut) (i32.shl (i32.add (local.get $f) (local.get $j)) (i32.const 2))) (local.get $vv))
            (f32.store (i32.add (local.get $o) (i32.shl (local.get $j) (i32.const 2)))
              (f32.add
                (f32.mul
                  (f32.div
                    (f32.div (local.get $mm) (local.get $bc1))
                    (f32.add (f32.sqrt (f32.div (local.get $vv) (local.get $bc2))) (local.get $eps)))
                  (local.get $negLr))
                (f32.load (i32.add (local.get $w) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $v1)))
        (local.set $f (i32.add (local.get $f) (local.get $size)))
        (local.set $t (i32.add (local.get $t) (i32.const 16)))
        (br $stepT))))
)
