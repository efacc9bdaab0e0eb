#!/usr/bin/env python3
"""
Writes the conformance fixtures (test/conformance/<family>.json) from the original services' recorded exchanges
(`docs/source/**/*.http`), read from bare git mirrors of the upstream repositories:

    python3 test/conformance/extract.py <mirrors dir>   # e.g. /work/.mirror (as `fetch github:owner/name` leaves them)

Per exchange it keeps what the client sent (role, method, path, body) and what matters in the answer: the status,
the errors of a refusal, the set of fields of `data`, and its values that are not ids, dates or tokens. The order is
the order the originals' docs code recorded them in. Marks added by hand to a fixture (`before`, `gap`,
`unreachable`, `note`, `ours`) are kept when it is written again.
"""
import base64, json, os, re, subprocess, sys

FAMILIES = {
    'lots': ('openprocurement+openregistry.lots.basic/repo', 'openprocurement/openregistry.lots.basic', ['docs.py']),
    'bounce': ('openprocurement+openregistry.assets.bounce/repo', 'openprocurement/openregistry.assets.bounce',
               ['docs/update_tutorial_requests.py']),
    'basic': ('openprocurement+openregistry.assets.basic/repo', 'openprocurement/openregistry.assets.basic', ['docs.py']),
    'insider': ('openprocurement+openprocurement.auctions.insider/repo', 'openprocurement/openprocurement.auctions.insider',
                ['docs.py']),
    'landlease': ('yevheniimoroziuk+openprocurement.auctions.geb/repo/.git', 'yevheniimoroziuk/openprocurement.auctions.geb',
                  None),
}
# The landlease recordings are written by many test modules, each from a state its fixture wrote: the procedure order.
GEB_ORDER = [
    'create_auction', 'get_draft_auction', 'phase_commit', 'active_rectification_change_title',
    'active_rectification_add_document', 'active_tendering_add_question', 'active_tendering_answer_question',
    'active_tendering_add_bid', 'active_tendering_get_bid', 'active_tendering_bid_attach_document',
    'active_tendering_activate_bid', 'active_tendering_bid_make_active_status', 'active_tendering_bid_get_active_status',
    'active_tendering_delete_bid', 'active_auction_auction_url', 'active_auction_participation_urls',
    'active_qualification_bid_owner_upload_protocol', 'active_qualification_organizer_upload_protocol',
    'active_qualification_activate_award', 'active_qualification_award_after_activation',
    'active_qualification_auction_after_activation', 'active_qualification_contract_after_activation',
    'active_awarded_organizer_contract_upload_contract', 'active_awarded_organizer_patch_contract_with_dateSigned',
    'active_awarded_organizer_activate_contract', 'active_awarded_contract_after_activation',
    'active_awarded_auction_after_contract_activation',
]
MARKS = ('before', 'gap', 'unreachable', 'note', 'ours', 'differs', 'asJson')
ID_KEYS = {'id', 'lotID', 'assetID', 'auctionID', 'contractID', 'relatedProcessID', 'relatedLot', 'merchandisingObject', 'bid_id',
           'relatedItem', 'owner_token', 'transfer_token', 'tenderID', 'token', 'transfer', 'url', 'auctionUrl',
           'participationUrl', 'hash', 'identifier'}
DATE = re.compile(r'^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}')


def git(mirror, *args):
    return subprocess.run(['git', f'--git-dir={mirror}', *args], capture_output=True, check=True).stdout.decode()


def parse_http(text):
    """A recording: the request (line, headers, body), then the answer (status line, headers, body)."""
    lines = text.replace('\r', '').split('\n')
    method, target = lines[0].split(' ')[:2]
    i, headers = 1, {}
    while i < len(lines) and lines[i].strip() and lines[i].strip() != 'DATA:':
        k, _, v = lines[i].partition(':')
        headers[k.strip().lower()] = v.strip()
        i += 1
    status_at = next((j for j in range(i, len(lines)) if re.match(r'^(Response: )?\d{3} [A-Z]', lines[j])), None)
    if status_at is None:  # a request whose answer was never recorded
        status_at = len(lines)
        lines.append('000 None')
    raw_body = '\n'.join(lines[i + 1:status_at]).strip()
    status = int(re.match(r'^(?:Response: )?(\d{3})', lines[status_at]).group(1))
    j = status_at + 1
    while j < len(lines) and lines[j].strip() and not lines[j].startswith('{'):
        j += 1
    answer = '\n'.join(lines[j:]).strip()
    role = None
    if 'authorization' in headers:
        role = base64.b64decode(headers['authorization'].split(' ')[1]).decode().split(':')[0]
    if not raw_body and headers.get('content-length') == '4':
        raw_body = 'data'  # the docs code sent the word `data` (post-attempt recordings), which some did not print
    try:
        body = json.loads(raw_body) if raw_body else None
    except ValueError:
        body = {'raw': raw_body}
    try:
        answer = json.loads(answer) if answer else None
    except ValueError:
        answer = None
    return method, target, role, headers, body, status, answer


def is_skipped(key, value):
    return key in ID_KEYS or 'date' in key.lower() or key in ('next_check', 'shouldStartAfter')


def leaves(value, path=''):
    """Every leaf that is not an id, a date or a token, by its dotted path."""
    out = {}
    if isinstance(value, dict):
        for k, v in value.items():
            if is_skipped(k, v):
                continue
            out.update(leaves(v, f'{path}.{k}' if path else k))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            out.update(leaves(v, f'{path}.{n}'))
    elif not (isinstance(value, str) and (DATE.match(value) or re.match(r'^[0-9a-f]{32}$', value))):
        out[path] = value
    return out


def fields_of(data):
    if isinstance(data, dict):
        return sorted(data)
    if isinstance(data, list):
        return sorted({k for d in data if isinstance(d, dict) for k in d})
    return []


def id_paths(value, path=''):
    """Where the answer holds server ids and tokens: the replay maps each recorded one to ours."""
    out = {}
    if isinstance(value, dict):
        for k, v in value.items():
            p = f'{path}.{k}' if path else k
            if k in ('id', 'token', 'transfer') and isinstance(v, str):
                out[p] = v
            else:
                out.update(id_paths(v, p))
    elif isinstance(value, list):
        for n, v in enumerate(value):
            out.update(id_paths(v, f'{path}.{n}'))
    return out


def latest_date(value):
    """The latest instant the answer shows: when the original answered (request dates are shifted by it)."""
    found = []
    def walk(v):
        if isinstance(v, dict):
            for x in v.values(): walk(x)
        elif isinstance(v, list):
            for x in v: walk(x)
        elif isinstance(v, str) and re.match(r'^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$', v):
            found.append(v)
    walk(value)
    return max(found, key=lambda d: d[:26]) if found else None


def exchange(name, text):
    method, target, role, headers, body, status, answer = parse_http(text)
    ctype = headers.get('content-type')
    path = re.sub(r'^https?://[^/]+', '', target)
    path = re.sub(r'[?&]opt_pretty=1', '', path).replace('/?', '?')
    ex = {'file': name, 'as': role, 'method': method, 'path': path}
    if ctype and ctype != 'application/json':
        ex['contentType'] = ctype
    if 'x-access-token' in headers:
        ex['token'] = headers['x-access-token']
    if body is not None:
        ex['body'] = body
    ex['status'] = status
    if status == 0:
        ex['unreachable'] = 'the recording holds the request only: no answer was recorded'
    if isinstance(answer, dict) and answer.get('status') == 'error':
        ex['errors'] = answer['errors']
    elif isinstance(answer, dict):
        data = answer.get('data')
        ex['fields'] = fields_of(data)
        ex['values'] = leaves(data) if isinstance(data, dict) else {}
        if 'access' in answer:
            ex['access'] = sorted(answer['access'])
        ids = id_paths(answer)
        if ids:
            ex['ids'] = ids
        stamps = [data.get(k) for k in ('dateModified', 'date')] if isinstance(data, dict) else []
        at = next((d for d in stamps if isinstance(d, str)), None) or latest_date(data)
        if at:
            ex['at'] = at
    return ex


def order_of(mirror, sources):
    if sources is None:
        return [f'docs/source/tutorial/{n}.http' for n in GEB_ORDER]
    order = []
    for src in sources:
        for m in re.finditer(r"open\('(docs/source/[^']+\.http)'", git(mirror, 'show', f'HEAD:{src}')):
            if m.group(1) not in order:
                order.append(m.group(1))
    return order


def main(root):
    here = os.path.dirname(os.path.abspath(__file__))
    for family, (mirror_dir, repo, sources) in FAMILIES.items():
        mirror = os.path.join(root, mirror_dir)
        present = set(git(mirror, 'ls-tree', '-r', 'HEAD', '--name-only').split('\n'))
        order = [p for p in order_of(mirror, sources) if p in present and '/complaints/' not in p]
        target = os.path.join(here, f'{family}.json')
        old = {}
        if os.path.exists(target):
            old = {e['file']: e for e in json.load(open(target))['exchanges']}
        exchanges = []
        for path in order:
            name = path[len('docs/source/'):]
            ex = exchange(name, git(mirror, 'show', f'HEAD:{path}'))
            for mark in MARKS:
                if mark in old.get(name, {}):
                    ex[mark] = old[name][mark]
            exchanges.append(ex)
        # Recordings the docs code at HEAD no longer writes (older runs left them): replayed last, each on its own.
        missing = sorted(p for p in present if p.endswith('.http') and p not in order and '/complaints/' not in p)
        for path in missing:
            name = path[len('docs/source/'):]
            ex = exchange(name, git(mirror, 'show', f'HEAD:{path}'))
            ex['note'] = 'an older recording: the docs code at HEAD no longer writes it'
            for mark in MARKS:
                if mark in old.get(name, {}):
                    ex[mark] = old[name][mark]
            exchanges.append(ex)
        doc = {'source': repo, 'recorded': len(exchanges), 'exchanges': exchanges}
        with open(target, 'w') as f:
            json.dump(doc, f, ensure_ascii=False, indent=1)
            f.write('\n')
        print(family, len(exchanges), 'missing order:', missing)


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else '/work/.mirror')
