#!/usr/bin/env python3
"""Set keys of a BookSim/GPGPU-Sim interconnect file (config_*.icnt) from an
overrides file of the same syntax: `key = value;` lines, `//` comments.

    icnt_set.py TARGET.icnt OVERRIDES.icnt

Every key of OVERRIDES must already be in TARGET (a typo would otherwise
be silently ignored by GPGPU-Sim's parser); its line is replaced in place.
Exit 2 with the key named when one is missing or a line cannot be read.
Used by correlate.sh --gg-icnt (e.g. gg_3.2.2_like.icnt).
"""
import re
import sys

LINE = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^;]*);')


def parse(path):
    out = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            text = raw.split('//', 1)[0].strip()
            if not text:
                continue
            m = LINE.match(text)
            if not m:
                sys.exit('icnt_set.py: %s:%d: not a "key = value;" line: %s' % (path, n, text))
            out.append((m.group(1), m.group(2).strip()))
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    target, over = sys.argv[1], sys.argv[2]
    try:
        sets = parse(over)
        lines = open(target).read().split('\n')
    except OSError as e:
        print('icnt_set.py: %s' % e, file=sys.stderr)
        return 2
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    for key, value in sets:
        hit = False
        for i, l in enumerate(lines):
            m = LINE.match(l.split('//', 1)[0])
            if m and m.group(1) == key:
                lines[i] = '%s = %s;' % (key, value)
                hit = True
        if not hit:
            print('icnt_set.py: %s: key %s (from %s) is not in the file' % (target, key, over), file=sys.stderr)
            return 2
    with open(target, 'w') as f:
        f.write('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
