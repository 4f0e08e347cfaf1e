#!/usr/bin/env python3
"""The Orchestra Lab policy's forward pass in plain Python (standard library only).

    python3 forward.py orchestrator.safetensors input-spec.json decisions.json

reads the weights (safetensors), what they mean (the input spec the lab exports beside them) and
decisions to score: {"decisions": [{"state": [32 numbers], "slots": [[21 numbers] or null, ...]}]},
one slot descriptor per slot of the spec in its order, null where the action is not allowed. It
prints {"logits": [...], "probabilities": [...]} per decision, actions in the spec's order (the
slots, then submit). The network is the spec's "network" formula: two MLPs with ReLU, a scorer run
on [state, slot] for each allowed slot and a submit head on the state.
"""
import json
import math
import struct
import sys

MASKED = -1e9


def load_safetensors(path):
    """Tensors by name, each (shape, flat list of floats), and the metadata."""
    with open(path, 'rb') as f:
        raw = f.read()
    (n,) = struct.unpack('<Q', raw[:8])
    header = json.loads(raw[8:8 + n].decode('utf-8'))
    metadata = header.pop('__metadata__', {})
    data = raw[8 + n:]
    tensors = {}
    for name, e in header.items():
        if e['dtype'] != 'F32':
            raise ValueError(f'{name}: dtype {e["dtype"]}, only F32 is read')
        a, b = e['data_offsets']
        tensors[name] = (e['shape'], list(struct.unpack(f'<{(b - a) // 4}f', data[a:b])))
    return tensors, metadata


def layer(x, w, b, relu):
    """act(x·W + b) for a row vector x and W of shape [inputs, outputs]."""
    (rows, cols), flat = w
    out = list(b[1])
    for i in range(rows):
        xi = x[i]
        if xi:
            base = i * cols
            for j in range(cols):
                out[j] += xi * flat[base + j]
    return [max(0.0, v) for v in out] if relu else out


def mlp_tail(h, t, head, depth):
    for k in range(1, depth):
        h = layer(h, t[f'{head}/l{k}/kernel'], t[f'{head}/l{k}/bias'], True)
    return layer(h, t[f'{head}/out/kernel'], t[f'{head}/out/bias'], False)[0]


def forward(tensors, spec, decision):
    depth = spec['network']['depth']
    state, slots = decision['state'], decision['slots']
    if len(state) != spec['state']['dim'] or len(slots) != len(spec['slots']):
        raise ValueError(f'a decision needs {spec["state"]["dim"]} state features and {len(spec["slots"])} slots')
    t = tensors
    # The scorer's first layer splits into its state and slot parts; the state part is shared by every slot.
    hs = layer(state, t['scorer/l0/state'], t['scorer/l0/bias'], False)
    logits = []
    for s, desc in enumerate(slots):
        if desc is None:
            logits.append(MASKED)
            continue
        if len(desc) != spec['slot']['dim']:
            raise ValueError(f'slot {s} ({spec["slots"][s]["id"]}) has {len(desc)} features, not {spec["slot"]["dim"]}')
        ht = layer(desc, t['scorer/l0/tool'], ([len(hs)], [0.0] * len(hs)), False)
        h = [max(0.0, a + b) for a, b in zip(hs, ht)]
        logits.append(mlp_tail(h, t, 'scorer', depth))
    g = layer(state, t['submit/l0/kernel'], t['submit/l0/bias'], True)
    logits.append(mlp_tail(g, t, 'submit', depth))
    top = max(logits)
    e = [math.exp(v - top) for v in logits]
    s = sum(e)
    return logits, [v / s for v in e]


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    tensors, _ = load_safetensors(argv[1])
    with open(argv[2]) as f:
        spec = json.load(f)
    with open(argv[3]) as f:
        decisions = json.load(f)['decisions']
    out = [forward(tensors, spec, d) for d in decisions]
    json.dump({'actions': spec['actions'], 'logits': [o[0] for o in out], 'probabilities': [o[1] for o in out]}, sys.stdout)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
