#!/usr/bin/env python3
"""Generates ucmpi's Fortran bindings (mpif.h, the mpi and mpi_f08 modules)
from the C prototypes and constants of include/mpi.h.  Run at build time;
the output is never committed.

  gen_fortran.py MPI_H OUTDIR --sizeof-aint N

writes into OUTDIR:
  mpif.h        constants, sentinel common blocks, typed functions
  mpi.f90       module mpi: the same constants and explicit interfaces
  mpi_f08.f90   module mpi_f08: handle types, TYPE(MPI_Status), generics
                whose specifics MPI_X_f08 (MPI_X_f08c) are the shims
  mpif_shims.c  the C side: pmpi_x_ for each bound MPI_X (mpi_x_,
                mpi_x_f08_ weak aliases), converting handles, strings,
                logicals, sentinels; an absent (NULL) ierror is allowed
  mpif_tramp.c  the trampoline pool for Fortran user ops
  mpif_handles.c  predefined handles in the fixed order whose indices
                mpif.h uses (registered by fort_util.c at load time)
  bound.txt     the bound, hand-written (fort_*.c) and skipped functions
Fortran conventions are gfortran's: lower case name + '_', hidden
CHARACTER lengths as size_t after all arguments, .TRUE. == 1.
"""
import os
import re
import sys

HANDLES = ['Comm', 'Datatype', 'Group', 'Op', 'Request', 'Errhandler',
           'Info', 'Win', 'Message', 'Session', 'File']
SCALARS = {'int': 'INTEGER', 'const int': 'INTEGER',
           'MPI_Aint': 'INTEGER(KIND=MPI_ADDRESS_KIND)',
           'MPI_Count': 'INTEGER(KIND=MPI_COUNT_KIND)',
           'MPI_Offset': 'INTEGER(KIND=MPI_OFFSET_KIND)',
           'double': 'DOUBLE PRECISION'}
CTYPE_OF_F = {'int': 'MPI_Fint', 'const int': 'MPI_Fint',
              'MPI_Aint': 'MPI_Aint', 'MPI_Count': 'MPI_Count',
              'MPI_Offset': 'MPI_Offset', 'double': 'double'}
# int arguments that Fortran declares LOGICAL
LOGICAL_NAMES = {'flag', 'reorder', 'high', 'commute', 'weighted'}
LOGICAL_ARRAYS = {'periods', 'remain_dims'}
# arrays that mpi.h spells as pointers (MPI_UNWEIGHTED passes without warnings)
POINTER_ARRAYS = {'sourceweights', 'destweights'}
# int arrays whose address may be MPI_UNWEIGHTED or MPI_WEIGHTS_EMPTY
WEIGHT_NAMES = {'weights', 'sourceweights', 'destweights'}
# Functions whose Fortran form a C prototype does not describe (no argv,
# a result, attribute values, callbacks): shims in lib/fortran/fort_*.c.
HAND_WRITTEN = {'MPI_Init', 'MPI_Init_thread', 'MPI_Pcontrol',
                'MPI_Comm_get_attr', 'MPI_Comm_set_attr', 'MPI_Attr_get',
                'MPI_Attr_put', 'MPI_Type_get_attr', 'MPI_Type_set_attr',
                'MPI_Win_get_attr', 'MPI_Win_set_attr', 'MPI_Buffer_detach',
                'MPI_Comm_detach_buffer', 'MPI_Session_detach_buffer',
                'MPI_Info_get_string', 'MPI_Wtime', 'MPI_Wtick',
                'MPI_Aint_add', 'MPI_Aint_diff', 'MPI_Info_create_env',
                'MPI_Op_create', 'MPI_Op_free', 'MPI_Comm_create_keyval',
                'MPI_Type_create_keyval', 'MPI_Win_create_keyval', 'MPI_Keyval_create',
                'MPI_Comm_create_errhandler', 'MPI_Win_create_errhandler',
                'MPI_File_create_errhandler', 'MPI_Session_create_errhandler',
                'MPI_Grequest_start', 'MPI_Comm_spawn', 'MPI_Comm_spawn_multiple'}
C_ONLY = re.compile(r'^MPI_(T_|\w+_(c2f|f2c|c2f08|f082c|f2f08|f082f)$)')


def strip_comments(src):
    src = re.sub(r'/\*.*?\*/', ' ', src, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', src)


class Param:
    def __init__(self, text):
        text = ' '.join(text.split())
        m = re.match(r'^(.*?)(\w+)\s*((?:\[\w*\])*)$', text)
        if text in ('void', '...') or m is None:
            self.ctype, self.name, self.array = text, '', False
            return
        self.name = m.group(2)
        self.array = bool(m.group(3))
        self.ctype = ' '.join(m.group(1).replace('*', ' * ').split())
        self.ctype = self.ctype.replace('* *', '**')
        if self.name in POINTER_ARRAYS and self.ctype.endswith(' *'):
            self.ctype, self.array = self.ctype[:-2], True
        self.const = self.ctype.startswith('const ')
        self.base = self.ctype[6:] if self.const else self.ctype


def parse_protos(src):
    protos = []
    for m in re.finditer(r'^(int|double|MPI_Aint)\s+(MPI_\w+)\s*\(([^;]*?)\)\s*;',
                         src, flags=re.M):
        args = [Param(a) for a in m.group(3).split(',')]
        if len(args) == 1 and args[0].ctype == 'void':
            args = []
        protos.append((m.group(1), m.group(2), args))
    return protos


def int_value(expr):
    expr = expr.strip()
    if not re.fullmatch(r'[-+0-9()\s<>|x]+', expr):
        return None
    try:
        v = eval(expr, {'__builtins__': {}})
    except Exception:
        return None
    return v if isinstance(v, int) else None


def parse_constants(src):
    """(ints, handles): ints name -> value; handles name -> (kind, object)
    where object is None for the null handle."""
    ints, handles, alias = {}, {}, {}
    kind_of_obj = {}
    for m in re.finditer(r'extern struct ucmpi_(\w+)_s\s+([^;]*);', src):
        for obj in m.group(2).replace('\n', ' ').split(','):
            kind_of_obj['&' + obj.strip()] = m.group(1)
    for m in re.finditer(r'^#define\s+(MPI_\w+|MPIO_\w+)\s+(.*)$', src, flags=re.M):
        name, val = m.group(1), m.group(2).strip()
        v = int_value(val)
        if v is not None:
            ints[name] = v
            continue
        m2 = re.fullmatch(r'\(\(MPI_(\w+)\)0\)', val)
        if m2 and m2.group(1) in HANDLES:
            handles[name] = (m2.group(1), None)
            continue
        m2 = re.fullmatch(r'UCMPI_DT\((\w+)\)', val)
        if m2:
            handles[name] = ('Datatype', 'ucmpi_dt_' + m2.group(1))
            continue
        m2 = re.fullmatch(r'\((&\w+)\)', val)
        if m2 and m2.group(1) in kind_of_obj:
            k = kind_of_obj[m2.group(1)]
            kind = {'comm': 'Comm', 'group': 'Group', 'errhandler': 'Errhandler',
                    'info': 'Info', 'op': 'Op', 'request': 'Request'}[k]
            if 'MESSAGE' in name:
                kind = 'Message'
            handles[name] = (kind, m2.group(1)[1:])
            continue
        if re.fullmatch(r'MPI\w+', val):
            alias[name] = val
    for m in re.finditer(r'enum\s*\{([^}]*)\}', src):
        nxt = 0
        for item in m.group(1).split(','):
            item = item.strip()
            if not item:
                continue
            if '=' in item:
                n, e = item.split('=', 1)
                nxt = int_value(e)
                item = n.strip()
            if item.startswith('MPI_'):
                ints[item] = nxt
            nxt += 1
    for name, target in alias.items():
        if target in ints:
            ints[name] = ints[target]
        elif target in handles:
            handles[name] = handles[target]
    return ints, handles


def handle_indices(handles):
    """Fortran index of each predefined handle: 0 for the null handles,
    then 1, 2, ... per kind in mpi.h's order (aliases share one)."""
    order, index = {}, {}
    for name, (kind, obj) in handles.items():
        if obj is None:
            index[name] = 0
            continue
        objs = order.setdefault(kind, [])
        if obj not in objs:
            objs.append(obj)
        index[name] = objs.index(obj) + 1
    return order, index


# ---------------------------------------------------------------- C side
class Shim:
    """One C shim: declarations, code before and after the C call."""

    def __init__(self, ret, name, params):
        self.ret, self.name, self.params = ret, name, params
        self.fargs, self.cargs, self.pre, self.post, self.lens = [], [], [], [], []
        self.fdecl = []          # Fortran interface declarations
        self.cleanup = []
        self.skip = None

    def handle_kind(self, base):
        """The handle kind of a C type, as its c2f/f2c functions spell it."""
        m = re.fullmatch(r'MPI_(\w+)', base)
        if not m or m.group(1) not in HANDLES:
            return None
        return 'Type' if m.group(1) == 'Datatype' else m.group(1)

    def length_of(self, p):
        names = [q.name for q in self.params]
        table = {'array_of_datatypes': 'max_datatypes'}
        if p.name in table and table[p.name] in names:
            return '*' + table[p.name]
        if p.name in ('sendtypes', 'recvtypes') and 'comm' in names:
            # one type per peer (Alltoallw) or per neighbor (Neighbor_alltoallw)
            which = 'UCMPI_F_NT_PEERS'
            if 'eighbor' in self.name:
                which = 'UCMPI_F_NT_OUT' if p.name == 'sendtypes' else 'UCMPI_F_NT_IN'
            return 'ucmpi_f_ntypes(PMPI_Comm_f2c(*comm), %s)' % which
        for n in ('count', 'incount'):
            if n in names:
                return '*' + n
        return None

    def add(self, p):
        n, ct = p.name, p.ctype
        base = p.base if hasattr(p, 'base') else ct
        hk = self.handle_kind(base.rstrip(' *'))
        is_ptr = ct.endswith('*')
        if ct in SCALARS and not p.array:
            ftype = 'LOGICAL' if n in LOGICAL_NAMES else SCALARS[ct]
            self.fargs.append('const %s *%s' % (CTYPE_OF_F[ct], n))
            self.cargs.append('(*%s != 0)' % n if n in LOGICAL_NAMES else '*' + n)
            self.fdecl.append('%s, INTENT(IN) :: %s' % (ftype, n))
        elif hk and not is_ptr and not p.array:
            self.fargs.append('const MPI_Fint *' + n)
            self.cargs.append('PMPI_%s_f2c(*%s)' % (hk, n))
            self.fdecl.append('INTEGER@%s@, INTENT(IN) :: %s' % (base, n))
        elif hk and is_ptr and not p.array:
            self.fargs.append('MPI_Fint *' + n)
            self.pre.append('%s c_%s = PMPI_%s_f2c(*%s);' % (base.rstrip(' *'), n, hk, n))
            self.cargs.append('&c_' + n)
            self.post.append('*%s = PMPI_%s_c2f(c_%s);' % (n, hk, n))
            self.fdecl.append('INTEGER@%s@, INTENT(INOUT) :: %s' % (base.rstrip(' *'), n))
        elif hk and p.array:
            ln = self.length_of(p)
            if ln is None:
                self.skip = 'array %s without a count' % n
                return
            self.fargs.append('%sMPI_Fint %s[]' % ('const ' if p.const else '', n))
            if not ln.startswith('*'):
                self.pre.append('const int n_%s = %s;' % (n, ln))
                ln = 'n_' + n
            self.pre.append('%s s_%s[16], *c_%s = %s > 16 ? malloc(sizeof(*c_%s) * (size_t)%s) : s_%s;'
                            % (base, n, n, ln, n, ln, n))
            self.pre.append('if (c_%s == NULL) { *ierror = MPI_ERR_NO_MEM; return; }' % n)
            self.pre.append('for (int i = 0; i < %s; i++) c_%s[i] = PMPI_%s_f2c(%s[i]);'
                            % (ln, n, hk, n))
            self.cargs.append('c_' + n)
            if not p.const:
                self.post.append('for (int i = 0; i < %s; i++) %s[i] = PMPI_%s_c2f(c_%s[i]);'
                                 % (ln, n, hk, n))
            self.cleanup.append('if (c_%s != s_%s) free(c_%s);' % (n, n, n))
            self.fdecl.append('INTEGER@%s@, INTENT(%s) :: %s(*)' % (base, 'IN' if p.const else 'INOUT', n))
        elif base in ('int *', 'int') and (p.array or is_ptr) and n in LOGICAL_ARRAYS:
            self.fargs.append('%sMPI_Fint *%s' % ('const ' if p.const else '', n))
            self.cargs.append(n)
            self.fdecl.append('LOGICAL, INTENT(%s) :: %s(*)' % ('IN' if p.const else 'INOUT', n))
        elif ct == 'int *' and n in LOGICAL_NAMES:
            self.fargs.append('MPI_Fint *' + n)
            self.pre.append('int c_%s = 0;' % n)
            self.cargs.append('&c_' + n)
            self.post.append('*%s = c_%s != 0;' % (n, n))
            self.fdecl.append('LOGICAL, INTENT(OUT) :: ' + n)
        elif ct == 'int *' and n == 'index':
            self.fargs.append('MPI_Fint *' + n)
            self.cargs.append(n)
            self.post.append('if (*index >= 0) *index += 1;   /* Fortran counts from 1 */')
            self.fdecl.append('INTEGER, INTENT(OUT) :: ' + n)
        elif base == 'int' and p.array and n == 'array_of_indices':
            self.fargs.append('MPI_Fint *' + n)
            self.cargs.append(n)
            self.post.append('if (*ierror == MPI_SUCCESS && *outcount != MPI_UNDEFINED)')
            self.post.append('    for (int i = 0; i < *outcount; i++) %s[i] += 1;' % n)
            self.fdecl.append('INTEGER, INTENT(OUT) :: %s(*)' % n)
        elif base in ('int', 'int *') and (p.array or is_ptr) and n in WEIGHT_NAMES and p.const:
            self.fargs.append('%sMPI_Fint *%s' % ('const ' if p.const else '', n))
            self.cargs.append('ucmpi_f_weights(%s)' % n)
            self.fdecl.append('INTEGER, INTENT(IN) :: %s(*)' % n)
        elif base == 'int' and n == 'ranges':
            self.fargs.append('%sMPI_Fint (*%s)[3]' % ('const ' if p.const else '', n))
            self.cargs.append(n)
            self.fdecl.append('INTEGER, INTENT(IN) :: %s(3, *)' % n)
        elif base in ('int', 'MPI_Aint', 'MPI_Count', 'MPI_Offset') and p.array or \
                base in ('int *', 'MPI_Aint *', 'MPI_Count *', 'MPI_Offset *'):
            sc = base.rstrip(' *')
            self.fargs.append('%s%s *%s' % ('const ' if p.const else '',
                                            CTYPE_OF_F.get(sc, sc), n))
            self.cargs.append(n)
            intent = 'IN' if p.const else 'INOUT'
            dim = '(*)' if p.array else ''
            self.fdecl.append('%s, INTENT(%s) :: %s%s' % (SCALARS[sc], intent, n, dim))
        elif base == 'MPI_Status *' or base == 'MPI_Status' and p.array:
            self.fargs.append('%sMPI_Fint *%s' % ('const ' if p.const else '', n))
            conv = 'ucmpi_f_statuses' if p.array else 'ucmpi_f_status'
            self.cargs.append('(%sMPI_Status *)%s(%s)' % ('const ' if p.const else '', conv, n))
            dim = '(MPI_STATUS_SIZE, *)' if p.array else '(MPI_STATUS_SIZE)'
            self.fdecl.append('INTEGER@MPI_Status@, INTENT(%s) :: %s%s' % ('IN' if p.const else 'INOUT', n, dim))
        elif base == 'void *':
            self.fargs.append('%svoid *%s' % ('const ' if p.const else '', n))
            self.cargs.append('ucmpi_f_buf(%s)' % n)
            self.fdecl.append('!GCC$ ATTRIBUTES NO_ARG_CHECK :: ' + n)
            self.fdecl.append('TYPE(*), DIMENSION(*)%s :: %s' % (self.asynchronous(), n))
        elif base in ('char *', 'char') and (is_ptr != p.array):
            self.fargs.append('%schar *%s' % ('const ' if p.const else '', n))
            self.lens.append('size_t %s_len' % n)
            if p.const:
                # MPI-4.1 10.1: Fortran info keys and values lose leading blanks too
                lead = 1 if self.name.startswith('MPI_Info_') else 0
                self.pre.append('char *c_%s = ucmpi_f_str_in(%s, %s_len, %d);' % (n, n, n, lead))
                self.pre.append('if (c_%s == NULL) { *ierror = MPI_ERR_NO_MEM; return; }' % n)
                self.fdecl.append('CHARACTER(LEN=*), INTENT(IN) :: ' + n)
            else:
                self.pre.append('char *c_%s = ucmpi_f_str_tmp(%s_len);' % (n, n))
                self.pre.append('if (c_%s == NULL) { *ierror = MPI_ERR_NO_MEM; return; }' % n)
                # written only when C wrote it: not on error, not when flag says absent
                found = ' && c_flag' if 'flag' in [q.name for q in self.params] else ''
                self.post.append('if (*ierror == MPI_SUCCESS%s)' % found)
                self.post.append('    ucmpi_f_str_out(%s, %s_len, c_%s);' % (n, n, n))
                self.fdecl.append('CHARACTER(LEN=*), INTENT(OUT) :: ' + n)
            self.cargs.append('c_' + n)
            self.cleanup.append('free(c_%s);' % n)
        else:
            self.skip = 'argument %s %s' % (ct, n)

    def build(self):
        for p in self.params:
            self.add(p)
            if self.skip:
                return
        self.fargs.append('MPI_Fint *ierror')

    def c_text(self):
        lname = self.name.lower()
        args = ', '.join(self.fargs + self.lens)
        if lname.endswith('_c'):      # large-count: mpi_f08's MPI_X_f08c only
            aliases = ['%s_f08c_' % lname[:-2], 'p%s_f08c_' % lname[:-2]]
        else:
            aliases = [lname + '_', lname + '_f08_', 'p%s_f08_' % lname]
        out = ['#pragma weak %s = p%s_' % (a, lname) for a in aliases]
        out += [
                'void p%s_(%s);' % (lname, args),
                'void p%s_(%s)' % (lname, args), '{',
                '    MPI_Fint ierror_absent;',
                '    if (ierror == NULL)   /* mpi_f08: ierror is optional */',
                '        ierror = &ierror_absent;']
        out += ['    ' + s for s in self.pre]
        out.append('    *ierror = P%s(%s);' % (self.name, ', '.join(self.cargs)))
        out += ['    ' + s for s in self.post]
        out += ['    ' + s for s in self.cleanup]
        out += ['}', '']
        return '\n'.join(out)

    def asynchronous(self):
        """Buffers of nonblocking and persistent calls (in mpi_f08)."""
        n = self.name
        if re.match(r'MPI_I[a-z]', n) and not n.startswith(('MPI_Info', 'MPI_Intercomm')) \
                or n.endswith('_init') or n.startswith(('MPI_Put', 'MPI_Get_accumulate', 'MPI_Rput',
                                                        'MPI_Rget', 'MPI_Raccumulate')) \
                or n in ('MPI_Get', 'MPI_Accumulate', 'MPI_Fetch_and_op', 'MPI_Compare_and_swap',
                         'MPI_Buffer_attach', 'MPI_Imrecv', 'MPI_Pready'):
            return '@ASYNC@'
        return ''

    def f08_interface(self, prefix=''):
        """The specific MPI_X_f08 in mpi_f08: handles and statuses as
        derived types (the same bytes as the INTEGERs the shim reads),
        ierror optional (the shims accept a NULL ierror)."""
        names = [p.name for p in self.params] + ['ierror']
        if self.name.endswith('_c'):
            name = prefix + self.name[:-2] + '_f08c'
        else:
            name = prefix + self.name + '_f08'
        lines = ['SUBROUTINE %s(%s)' % (name, ', '.join(names)), 'IMPORT']
        lines += [f08_decl(d) for d in self.fdecl]
        lines += ['INTEGER, OPTIONAL, INTENT(OUT) :: ierror', 'END SUBROUTINE ' + name]
        return lines

    def f_interface(self):
        names = [p.name for p in self.params] + ['ierror']
        lines = ['SUBROUTINE %s(%s)' % (self.name, ', '.join(names)),
                 'IMPORT']
        lines += [mpi_decl(d) for d in self.fdecl]
        lines += ['INTEGER, INTENT(OUT) :: ierror', 'END SUBROUTINE ' + self.name]
        return lines


def mpi_decl(d):
    return re.sub(r'@[\w ]*@', '', d)


def f08_decl(d):
    d = d.replace('@ASYNC@', ', ASYNCHRONOUS')
    d = re.sub(r'INTEGER@MPI_Status@(.*)\(MPI_STATUS_SIZE(, \*)?\)$',
               lambda m: 'TYPE(MPI_Status)%s%s' % (m.group(1), '(*)' if m.group(2) else ''), d)
    return re.sub(r'INTEGER@(MPI_\w+)@', r'TYPE(\1)', d)


# ------------------------------------------------------------ Fortran side
def fixed_lines(decls):
    """Lines valid as both fixed and free form (column 7..72)."""
    out = []
    for d in decls:
        line = '      ' + d
        if len(line) > 72:
            raise SystemExit('gen_fortran: line too long for fixed form: ' + line)
        out.append(line)
    return out


def constant_decls(ints, handles, hindex, sizeof_aint):
    decls = []

    def param(name, value, ftype='INTEGER'):
        decls.append('%s %s' % (ftype, name))
        decls.append('PARAMETER (%s=%s)' % (name, value))

    for k, kind in (('MPI_ADDRESS_KIND', sizeof_aint), ('MPI_OFFSET_KIND', 8),
                    ('MPI_COUNT_KIND', 8), ('MPI_INTEGER_KIND', 4)):
        param(k, kind)
    param('MPI_STATUS_SIZE', ints['MPI_F_STATUS_SIZE'])
    param('MPI_SOURCE', ints['MPI_F_SOURCE'] + 1)
    param('MPI_TAG', ints['MPI_F_TAG'] + 1)
    param('MPI_ERROR', ints['MPI_F_ERROR'] + 1)
    # MPI-4.1 19.1: constants passed where an offset is read have its kind
    offset_consts = {'MPI_DISPLACEMENT_CURRENT'}
    for name, v in ints.items():
        if name.startswith('MPI_F_'):
            continue
        param(name, v, 'INTEGER(KIND=MPI_OFFSET_KIND)' if name in offset_consts else 'INTEGER')
    for name in handles:
        param(name, hindex[name])
    for fn in CALLBACK_FNS:
        decls.append('EXTERNAL %s' % fn)
    decls.append('DOUBLE PRECISION MPI_WTIME, MPI_WTICK')
    decls.append('DOUBLE PRECISION PMPI_WTIME, PMPI_WTICK')
    decls.append('INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_ADD')
    decls.append('INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT_DIFF')
    return decls


SENTINELS = [  # (Fortran name, declaration, common block)
    ('MPI_BOTTOM', 'INTEGER MPI_BOTTOM', 'MPI_FORTRAN_BOTTOM'),
    ('MPI_IN_PLACE', 'INTEGER MPI_IN_PLACE', 'MPI_FORTRAN_IN_PLACE'),
    ('MPI_STATUS_IGNORE', 'INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)',
     'MPI_FORTRAN_STATUS_IGNORE'),
    ('MPI_STATUSES_IGNORE', 'INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)',
     'MPI_FORTRAN_STATUSES_IGNORE'),
    ('MPI_ERRCODES_IGNORE', 'INTEGER MPI_ERRCODES_IGNORE(1)',
     'MPI_FORTRAN_ERRCODES_IGNORE'),
    ('MPI_UNWEIGHTED', 'INTEGER MPI_UNWEIGHTED(1)', 'MPI_FORTRAN_UNWEIGHTED'),
    ('MPI_WEIGHTS_EMPTY', 'INTEGER MPI_WEIGHTS_EMPTY(1)',
     'MPI_FORTRAN_WEIGHTS_EMPTY'),
    ('MPI_ARGV_NULL', 'CHARACTER*1 MPI_ARGV_NULL(1)', 'MPI_FORTRAN_ARGV_NULL'),
    ('MPI_ARGVS_NULL', 'CHARACTER*1 MPI_ARGVS_NULL(1,1)', 'MPI_FORTRAN_ARGVS_NULL'),
]


def sentinel_decls():
    decls = []
    for name, decl, common in SENTINELS:
        decls.append(decl)
        decls.append('COMMON /%s/ %s' % (common, name))
        decls.append('SAVE /%s/' % common)
    return decls


def wrap_free(line, width=100):
    """Free-form continuation lines for long statements (after commas)."""
    out = []
    indent = ' ' * (len(line) - len(line.lstrip()) + 4)
    while len(line) > width:
        cut = line.rfind(', ', 0, width - 2)
        if cut < 0:
            break
        out.append(line[:cut + 1] + ' &')
        line = indent + line[cut + 2:]
    return out + [line]


def write(path, text):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


# mpi_f08's callback prototypes (MPI-4.1 A.4): PROCEDURE(...) dummies of
# the hand-written shims.  The bytes match the mpi module's callbacks (a
# handle type is one INTEGER, a C_PTR by value is the buffer's address).
F08_CALLBACKS = {
    'MPI_User_function': ('invec, inoutvec, len, datatype',
                          ['USE, INTRINSIC :: ISO_C_BINDING, ONLY: C_PTR',
                           'TYPE(C_PTR), VALUE :: invec, inoutvec', 'INTEGER :: len',
                           'TYPE(MPI_Datatype) :: datatype']),
    'MPI_User_function_c': ('invec, inoutvec, len, datatype',
                            ['USE, INTRINSIC :: ISO_C_BINDING, ONLY: C_PTR',
                             'TYPE(C_PTR), VALUE :: invec, inoutvec',
                             'INTEGER(KIND=MPI_COUNT_KIND) :: len',
                             'TYPE(MPI_Datatype) :: datatype']),
    'MPI_Grequest_query_function': ('extra_state, status, ierror',
                                    ['INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state',
                                     'TYPE(MPI_Status) :: status', 'INTEGER :: ierror']),
    'MPI_Grequest_free_function': ('extra_state, ierror',
                                   ['INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state',
                                    'INTEGER :: ierror']),
    'MPI_Grequest_cancel_function': ('extra_state, complete, ierror',
                                     ['INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state',
                                      'LOGICAL :: complete', 'INTEGER :: ierror']),
}
for _obj, _type in (('Comm', 'MPI_Comm'), ('Type', 'MPI_Datatype'), ('Win', 'MPI_Win')):
    _o = 'type' if _obj == 'Type' else _obj.lower()
    F08_CALLBACKS['MPI_%s_copy_attr_function' % _obj] = (
        'old%s, %s_keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror'
        % (_o, _o),
        ['TYPE(%s) :: old%s' % (_type, _o), 'INTEGER :: %s_keyval, ierror' % _o,
         'INTEGER(KIND=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out',
         'LOGICAL :: flag'])
    F08_CALLBACKS['MPI_%s_delete_attr_function' % _obj] = (
        '%s, %s_keyval, attribute_val, extra_state, ierror' % (_o, _o),
        ['TYPE(%s) :: %s' % (_type, _o), 'INTEGER :: %s_keyval, ierror' % _o,
         'INTEGER(KIND=MPI_ADDRESS_KIND) :: attribute_val, extra_state'])
for _obj in ('Comm', 'Win', 'File', 'Session'):
    F08_CALLBACKS['MPI_%s_errhandler_function' % _obj] = (
        '%s, error_code' % _obj.lower(),
        ['TYPE(MPI_%s) :: %s' % (_obj, _obj.lower()), 'INTEGER :: error_code'])


# f08 interfaces of the hand-written shims (fort_util.c, fort_attr.c).
HAND_F08 = {
    'MPI_Init': [],
    'MPI_Init_thread': ['INTEGER, INTENT(IN) :: required',
                        'INTEGER, INTENT(OUT) :: provided'],
    'MPI_Pcontrol': ['INTEGER, INTENT(IN) :: level'],
    'MPI_Info_create_env': ['TYPE(MPI_Info), INTENT(OUT) :: info'],
    'MPI_Info_get_string': ['TYPE(MPI_Info), INTENT(IN) :: info',
                            'CHARACTER(LEN=*), INTENT(IN) :: key',
                            'INTEGER, INTENT(INOUT) :: buflen',
                            'CHARACTER(LEN=*), INTENT(OUT) :: value',
                            'LOGICAL, INTENT(OUT) :: flag'],
}
HAND_F08['MPI_Op_create'] = ['PROCEDURE(MPI_User_function) :: user_fn', 'LOGICAL, INTENT(IN) :: commute',
                             'TYPE(MPI_Op), INTENT(OUT) :: op']
HAND_F08['MPI_Grequest_start'] = ['PROCEDURE(MPI_Grequest_query_function) :: query_fn',
                                  'PROCEDURE(MPI_Grequest_free_function) :: free_fn',
                                  'PROCEDURE(MPI_Grequest_cancel_function) :: cancel_fn',
                                  'INTEGER(KIND=MPI_ADDRESS_KIND), INTENT(IN) :: extra_state',
                                  'TYPE(MPI_Request), INTENT(OUT) :: request']
HAND_F08['MPI_Buffer_detach'] = ['TYPE(C_PTR), INTENT(OUT) :: buffer_addr',
                                 'INTEGER, INTENT(OUT) :: size']
HAND_F08['MPI_Comm_detach_buffer'] = ['TYPE(MPI_Comm), INTENT(IN) :: comm',
                                      'TYPE(C_PTR), INTENT(OUT) :: buffer_addr',
                                      'INTEGER, INTENT(OUT) :: size']
HAND_F08['MPI_Session_detach_buffer'] = ['TYPE(MPI_Session), INTENT(IN) :: session',
                                         'TYPE(C_PTR), INTENT(OUT) :: buffer_addr',
                                         'INTEGER, INTENT(OUT) :: size']
HAND_F08['MPI_Op_free'] = ['TYPE(MPI_Op), INTENT(INOUT) :: op']
HAND_F08['MPI_Comm_spawn'] = ['CHARACTER(LEN=*), INTENT(IN) :: command',
                              'CHARACTER(LEN=*), INTENT(IN) :: argv(*)',
                              'INTEGER, INTENT(IN) :: maxprocs', 'TYPE(MPI_Info), INTENT(IN) :: info',
                              'INTEGER, INTENT(IN) :: root', 'TYPE(MPI_Comm), INTENT(IN) :: comm',
                              'TYPE(MPI_Comm), INTENT(OUT) :: intercomm',
                              'INTEGER :: array_of_errcodes(*)']
HAND_F08['MPI_Comm_spawn_multiple'] = [
    'INTEGER, INTENT(IN) :: count', 'CHARACTER(LEN=*), INTENT(IN) :: array_of_commands(*)',
    'CHARACTER(LEN=*), INTENT(IN) :: array_of_argv(count, *)',
    'INTEGER, INTENT(IN) :: array_of_maxprocs(*)', 'TYPE(MPI_Info), INTENT(IN) :: array_of_info(*)',
    'INTEGER, INTENT(IN) :: root', 'TYPE(MPI_Comm), INTENT(IN) :: comm',
    'TYPE(MPI_Comm), INTENT(OUT) :: intercomm', 'INTEGER :: array_of_errcodes(*)']
# Their large-count specifics MPI_X_f08c: in the generic MPI_X, or in a
# generic MPI_X_c of their own when a callback is the only difference
# (MPI-4.0 errata: MPI_Op_create_c; PROCEDURE dummies do not tell apart).
HAND_F08_LARGE = {
    'MPI_Op_create': ['PROCEDURE(MPI_User_function_c) :: user_fn',
                      'LOGICAL, INTENT(IN) :: commute', 'TYPE(MPI_Op), INTENT(OUT) :: op'],
}
SEPARATE_C = {'MPI_Op_create'}
for _name in ('MPI_Buffer_detach', 'MPI_Comm_detach_buffer', 'MPI_Session_detach_buffer'):
    HAND_F08_LARGE[_name] = HAND_F08[_name][:-1] + [
        'INTEGER(KIND=MPI_COUNT_KIND), INTENT(OUT) :: size']
HAND_F08['MPI_Status_f2f08'] = ['INTEGER, INTENT(IN) :: f_status(MPI_STATUS_SIZE)',
                                'TYPE(MPI_Status), INTENT(OUT) :: f08_status']
HAND_F08['MPI_Status_f082f'] = ['TYPE(MPI_Status), INTENT(IN) :: f08_status',
                                'INTEGER, INTENT(OUT) :: f_status(MPI_STATUS_SIZE)']
for _obj in ('Comm', 'Win', 'File', 'Session'):
    HAND_F08['MPI_%s_create_errhandler' % _obj] = [
        'PROCEDURE(MPI_%s_errhandler_function) :: %s_errhandler_fn' % (_obj, _obj.lower()),
        'TYPE(MPI_Errhandler), INTENT(OUT) :: errhandler']
for _obj, _type in (('comm', 'MPI_Comm'), ('type', 'MPI_Datatype'), ('win', 'MPI_Win')):
    HAND_F08['MPI_%s_create_keyval' % _obj.capitalize()] = [
        'PROCEDURE(MPI_%s_copy_attr_function) :: %s_copy_attr_fn' % (_obj.capitalize(), _obj),
        'PROCEDURE(MPI_%s_delete_attr_function) :: %s_delete_attr_fn' % (_obj.capitalize(), _obj),
        'INTEGER, INTENT(OUT) :: %s_keyval' % _obj,
        'INTEGER(KIND=MPI_ADDRESS_KIND), INTENT(IN) :: extra_state']
    _o = 'datatype' if _obj == 'type' else _obj
    HAND_F08['MPI_%s_get_attr' % _obj.capitalize()] = [
        'TYPE(%s), INTENT(IN) :: %s' % (_type, _o), 'INTEGER, INTENT(IN) :: keyval',
        'INTEGER(KIND=MPI_ADDRESS_KIND), INTENT(OUT) :: attribute_val',
        'LOGICAL, INTENT(OUT) :: flag']
    HAND_F08['MPI_%s_set_attr' % _obj.capitalize()] = [
        'TYPE(%s), INTENT(IN) :: %s' % (_type, _o), 'INTEGER, INTENT(IN) :: keyval',
        'INTEGER(KIND=MPI_ADDRESS_KIND), INTENT(IN) :: attribute_val']


SIZEOF_KINDS = [('INTEGER', k) for k in (1, 2, 4, 8, 16)] + \
    [('REAL', k) for k in (4, 8, 10, 16)] + [('COMPLEX', k) for k in (4, 8, 10, 16)] + \
    [('LOGICAL', k) for k in (1, 2, 4, 8)] + [('CHARACTER', 1)]


def sizeof_generic(f08):
    """MPI_SIZEOF (mpi and mpi_f08 only): bytes of one element of any
    intrinsic type and kind, scalar or array (assumed rank)."""
    names = ['ucmpi_sizeof_%s%d' % (t.lower(), k) for t, k in SIZEOF_KINDS]
    head = ['PRIVATE :: ' + ', '.join(names),
            'INTERFACE MPI_Sizeof', '  MODULE PROCEDURE ' + ', '.join(names), 'END INTERFACE']
    body = []
    for (t, k), n in zip(SIZEOF_KINDS, names):
        decl = 'CHARACTER(LEN=*)' if t == 'CHARACTER' else '%s(KIND=%d)' % (t, k)
        body += ['SUBROUTINE %s(x, size, ierror)' % n,
                 '  %s, INTENT(IN) :: x(..)' % decl,
                 '  INTEGER, INTENT(OUT) :: size',
                 '  INTEGER%s, INTENT(OUT) :: ierror' % (', OPTIONAL' if f08 else ''),
                 '  size = %s' % ('KIND(x)' if t == 'CHARACTER' else 'STORAGE_SIZE(x) / 8'),
                 '  %sierror = MPI_SUCCESS' % ('IF (PRESENT(ierror)) ' if f08 else ''),
                 'END SUBROUTINE']
    return head, body


def signature(shim):
    """What generic resolution sees of a specific: types and kinds."""
    sig = []
    for d in shim.fdecl:
        if d.startswith('!') or 'TYPE(*)' in d:
            continue
        d = f08_decl(d).split('::')[0]
        d = re.sub(r'MPI_(COUNT|OFFSET)_KIND', 'MPI_ADDRESS_KIND', d)
        sig.append(re.sub(r',\s*(INTENT\(\w+\)|ASYNCHRONOUS)', '', d).strip())
    return sig


def f08_module(shims, large, ints, handles, hindex, consts):
    """module mpi_f08: handle types, MPI_Status, constants, and a generic
    MPI_X (and PMPI_X) per function whose specific MPI_X_f08 is the C shim
    itself.  Choice buffers are assumed-size: MPI_SUBARRAYS_SUPPORTED is
    .FALSE. (the compiler copies non-contiguous sections in and out)."""
    m = ['! Generated by lib/fortran/gen_fortran.py from include/mpi.h.',
         'MODULE mpi_f08', 'USE, INTRINSIC :: ISO_C_BINDING, ONLY: C_CHAR, C_INT, C_PTR',
         'IMPLICIT NONE', 'PRIVATE :: C_CHAR, C_INT',
         'PRIVATE :: ' + ', '.join('ucmpi_eq_%s, ucmpi_ne_%s' % (k.lower(), k.lower())
                                   for k in HANDLES)]
    for k in HANDLES:
        m += ['TYPE, BIND(C) :: MPI_%s' % k, '  INTEGER(C_INT) :: MPI_VAL', 'END TYPE']
    m += ['TYPE, BIND(C) :: MPI_Status',
          '  INTEGER(C_INT) :: MPI_SOURCE, MPI_TAG, MPI_ERROR',
          '  INTEGER(C_INT) :: ucmpi_internal(%d)' % (ints['MPI_F_STATUS_SIZE'] - 3),
          'END TYPE']
    m += [d for d in consts if not d.startswith(('DOUBLE', 'INTEGER(KIND=MPI_ADDRESS_KIND) MPI_AINT'))
          and not any(re.match(r'(INTEGER |PARAMETER \()%s\b' % h, d) for h in handles)]
    for name, (kind, _) in handles.items():
        m.append('TYPE(MPI_%s), PARAMETER :: %s = MPI_%s(%d)' % (kind, name, kind, hindex[name]))
    m += ['LOGICAL, PARAMETER :: MPI_SUBARRAYS_SUPPORTED = .FALSE.',
          'LOGICAL, PARAMETER :: MPI_ASYNC_PROTECTS_NONBLOCKING = .FALSE.']
    for name, decl, common in SENTINELS:
        ftype = {'MPI_STATUS_IGNORE': 'TYPE(MPI_Status)',
                 'MPI_STATUSES_IGNORE': 'TYPE(MPI_Status)',
                 'MPI_ARGV_NULL': 'CHARACTER(KIND=C_CHAR)',
                 'MPI_ARGVS_NULL': 'CHARACTER(KIND=C_CHAR)'}.get(name, 'INTEGER(C_INT)')
        dim = '(1)' if '(' in decl and name != 'MPI_STATUS_IGNORE' else ''
        dim = '(1,1)' if name == 'MPI_ARGVS_NULL' else dim
        m.append('%s, BIND(C, name="%s_") :: %s%s' % (ftype, common.lower(), name, dim))
    m += ['INTERFACE OPERATOR(==)', '  MODULE PROCEDURE ' +
          ', '.join('ucmpi_eq_%s' % k.lower() for k in HANDLES), 'END INTERFACE',
          'INTERFACE OPERATOR(/=)', '  MODULE PROCEDURE ' +
          ', '.join('ucmpi_ne_%s' % k.lower() for k in HANDLES), 'END INTERFACE']
    m.append('ABSTRACT INTERFACE')
    for name, (args, decls) in F08_CALLBACKS.items():
        use = [d for d in decls if d.startswith('USE')]
        m += ['  SUBROUTINE %s(%s)' % (name, args)] + ['    ' + d for d in use]
        m += ['    IMPORT'] + ['    ' + d for d in decls if not d.startswith('USE')]
        m += ['  END SUBROUTINE']
    m.append('END INTERFACE')
    m += ['INTERFACE',
          '  DOUBLE PRECISION FUNCTION MPI_Wtime()', '  END FUNCTION',
          '  DOUBLE PRECISION FUNCTION MPI_Wtick()', '  END FUNCTION',
          '  DOUBLE PRECISION FUNCTION PMPI_Wtime()', '  END FUNCTION',
          '  DOUBLE PRECISION FUNCTION PMPI_Wtick()', '  END FUNCTION',
          '  FUNCTION MPI_Aint_add(base, disp)', '    IMPORT',
          '    INTEGER(KIND=MPI_ADDRESS_KIND) :: MPI_Aint_add, base, disp',
          '  END FUNCTION',
          '  FUNCTION MPI_Aint_diff(addr1, addr2)', '    IMPORT',
          '    INTEGER(KIND=MPI_ADDRESS_KIND) :: MPI_Aint_diff, addr1, addr2',
          '  END FUNCTION', 'END INTERFACE']
    def hand(name, decls, suffix):
        def body(prefix=''):
            args = [d.split(':: ')[1].split('(')[0] for d in decls] + ['ierror']
            full = prefix + name + suffix
            return (['SUBROUTINE %s(%s)' % (full, ', '.join(args)), 'IMPORT'] + decls +
                    ['INTEGER, OPTIONAL, INTENT(OUT) :: ierror', 'END SUBROUTINE ' + full])
        return body

    def both(a, b):
        return lambda prefix='': a(prefix) + b(prefix)
    # A _c form whose arguments are the plain form's kinds (MPI_ADDRESS_KIND
    # == MPI_COUNT_KIND here) would make the generic ambiguous: it gets a
    # generic MPI_X_c of its own, so the name of the _c form still works.
    specifics = []
    for s in shims:
        l = large.get(s.name)
        if l is None:
            specifics.append((s.name, s.f08_interface))
        elif signature(l) == signature(s):
            specifics += [(s.name, s.f08_interface), (s.name + '_c', l.f08_interface)]
        else:
            specifics.append((s.name, both(s.f08_interface, l.f08_interface)))
    for name, decls in HAND_F08.items():
        plain = hand(name, decls, '_f08')
        if name not in HAND_F08_LARGE:
            specifics.append((name, plain))
            continue
        lg = hand(name, HAND_F08_LARGE[name], '_f08c')
        if name in SEPARATE_C:
            specifics += [(name, plain), (name + '_c', lg)]
        else:
            specifics.append((name, both(plain, lg)))
    for name, body in specifics:
        for prefix in ('', 'P'):
            m += ['INTERFACE %s%s' % (prefix, name)]
            m += ['  ' + line for line in body(prefix)]
            m += ['END INTERFACE']
    head, body = sizeof_generic(True)
    m += head
    m.append('CONTAINS')
    m += body
    for k in HANDLES:
        for op, fn in (('==', 'eq'), ('/=', 'ne')):
            f = 'ucmpi_%s_%s' % (fn, k.lower())
            m += ['ELEMENTAL LOGICAL FUNCTION %s(a, b)' % f,
                  '  TYPE(MPI_%s), INTENT(IN) :: a, b' % k,
                  '  %s = a%%MPI_VAL %s b%%MPI_VAL' % (f, op), 'END FUNCTION']
    m.append('END MODULE mpi_f08')
    return [w for line in m for w in wrap_free(line)]


# Fortran user ops (C calls them without user data) go through a fixed
# pool of trampolines, each knowing its slot (one pool, two signatures).
TRAMPOLINES = [  # (pool, C function type, C parameters, call)
    ('op', 'MPI_User_function', 'void *in, void *inout, int *len, MPI_Datatype *dt',
     'ucmpi_f_op_call(%d, in, inout, len, dt)'),
    ('op_c', 'MPI_User_function_c', 'void *in, void *inout, MPI_Count *len, MPI_Datatype *dt',
     'ucmpi_f_op_call_c(%d, in, inout, len, dt)'),
]


def trampolines():
    t = ['#include "fortran/fort.h"', '']
    for pool, ftype, sig, call in TRAMPOLINES:
        for i in range(UCMPI_F_POOL):
            t += ['static void %s_%d(%s)' % (pool, i, sig), '{', '    ' + call % i + ';', '}']
        t.append('%s *const ucmpi_f_%s_tramp[UCMPI_F_POOL] = {' % (ftype, pool))
        t += ['    %s_%d,' % (pool, i) for i in range(UCMPI_F_POOL)]
        t += ['};', '']
    return t


UCMPI_F_POOL = 64   # fort.h
# the predefined attribute callbacks, Fortran procedures in fort_keyval.c
CALLBACK_FNS = ['MPI_COMM_NULL_COPY_FN', 'MPI_COMM_DUP_FN', 'MPI_COMM_NULL_DELETE_FN',
                'MPI_TYPE_NULL_COPY_FN', 'MPI_TYPE_DUP_FN', 'MPI_TYPE_NULL_DELETE_FN',
                'MPI_WIN_NULL_COPY_FN', 'MPI_WIN_DUP_FN', 'MPI_WIN_NULL_DELETE_FN',
                'MPI_NULL_COPY_FN', 'MPI_DUP_FN', 'MPI_NULL_DELETE_FN']


def main():
    args = sys.argv[1:]
    sizeof_aint = 8
    if '--sizeof-aint' in args:
        i = args.index('--sizeof-aint')
        sizeof_aint = int(args[i + 1])
        del args[i:i + 2]
    mpi_h, outdir = args
    src = strip_comments(open(mpi_h).read())
    ints, handles = parse_constants(src)
    order, hindex = handle_indices(handles)
    protos = parse_protos(src)

    shims, skipped, large = [], [], {}
    for ret, name, params in protos:
        if name.endswith('_c') and not C_ONLY.match(name) and name[:-2] not in HAND_WRITTEN:
            s = Shim(ret, name, params)
            s.build()
            if s.skip:
                skipped.append((name, s.skip))
            else:
                large[name[:-2]] = s
            continue
        if C_ONLY.match(name) or name.endswith('_c') or name in HAND_WRITTEN:
            if name in HAND_WRITTEN:
                continue
            skipped.append((name, 'C only or large-count form'))
            continue
        if ret != 'int':
            skipped.append((name, 'returns ' + ret))
            continue
        s = Shim(ret, name, params)
        s.build()
        if s.skip:
            skipped.append((name, s.skip))
        else:
            shims.append(s)

    banner = '/* Generated by lib/fortran/gen_fortran.py from include/mpi.h: do not edit. */\n'
    c = [banner, '#include "fortran/fort.h"', '#include <stdlib.h>', '']
    c += [s.c_text() for s in shims]
    c += [s.c_text() for s in large.values()]
    write(os.path.join(outdir, 'mpif_shims.c'), '\n'.join(c))

    h = [banner, '#include "fortran/fort.h"', '',
         '/* Predefined handles in the order mpif.h numbers them. */']
    for kind in HANDLES:
        objs = order.get(kind, [])
        if not objs:
            continue
        h.append('static void *const predef_%s[] = {' % kind.lower())
        h += ['    &%s,' % o for o in objs]
        h.append('};')
    h.append('const ucmpi_f_predef_t ucmpi_f_predef[] = {')
    for kind in HANDLES:
        if order.get(kind):
            h.append('    {"%s", (ucmpi_f_c2f_t)PMPI_%s_c2f, predef_%s, %d},'
                     % (kind, 'Type' if kind == 'Datatype' else kind,
                        kind.lower(), len(order[kind])))
    h += ['    {NULL, NULL, NULL, 0}', '};', '']
    write(os.path.join(outdir, 'mpif_handles.c'), '\n'.join(h))

    write(os.path.join(outdir, 'mpif_tramp.c'), banner + '\n'.join(trampolines()) + '\n')

    consts = constant_decls(ints, handles, hindex, sizeof_aint)
    seen = {}
    for d in consts:
        m = re.match(r'PARAMETER \((\w+)=', d)
        if m:
            key = m.group(1).upper()
            if key in seen:
                raise SystemExit('gen_fortran: %s and %s collide in Fortran'
                                 % (seen[key], m.group(1)))
            seen[key] = m.group(1)
    fh = ['! Generated by lib/fortran/gen_fortran.py from include/mpi.h.',
          '! ucmpi mpif.h: valid as fixed and free source form.']
    fh += fixed_lines(consts + sentinel_decls())
    fh += fixed_lines(['EXTERNAL MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK',
                       'EXTERNAL MPI_AINT_ADD, MPI_AINT_DIFF'])
    write(os.path.join(outdir, 'mpif.h'), '\n'.join(fh) + '\n')

    m = ['! Generated by lib/fortran/gen_fortran.py from include/mpi.h.',
         'MODULE mpi', 'IMPLICIT NONE', 'PUBLIC']
    m += ['  ' + d for d in consts if not d.startswith('DOUBLE') and 'AINT_' not in d]
    m += ['  ' + d for d in sentinel_decls()]
    m += ['  LOGICAL, PARAMETER :: MPI_SUBARRAYS_SUPPORTED = .FALSE.',
          '  LOGICAL, PARAMETER :: MPI_ASYNC_PROTECTS_NONBLOCKING = .FALSE.',
          '  INTERFACE']
    m += ['    DOUBLE PRECISION FUNCTION MPI_WTIME()', '    END FUNCTION',
          '    DOUBLE PRECISION FUNCTION MPI_WTICK()', '    END FUNCTION',
          '    DOUBLE PRECISION FUNCTION PMPI_WTIME()', '    END FUNCTION',
          '    DOUBLE PRECISION FUNCTION PMPI_WTICK()', '    END FUNCTION',
          '    FUNCTION MPI_AINT_ADD(base, disp)', '      IMPORT',
          '      INTEGER(KIND=MPI_ADDRESS_KIND) :: MPI_AINT_ADD, base, disp',
          '    END FUNCTION',
          '    FUNCTION MPI_AINT_DIFF(addr1, addr2)', '      IMPORT',
          '      INTEGER(KIND=MPI_ADDRESS_KIND) :: MPI_AINT_DIFF, addr1, addr2',
          '    END FUNCTION']
    for s in shims:
        m += ['    ' + l for l in s.f_interface()]
    m += ['  END INTERFACE']
    head, body = sizeof_generic(False)
    m += ['  ' + l for l in head] + ['CONTAINS'] + ['  ' + l for l in body]
    m += ['END MODULE mpi']
    m = [w for line in m for w in wrap_free(line)]
    write(os.path.join(outdir, 'mpi.f90'), '\n'.join(m) + '\n')

    write(os.path.join(outdir, 'mpi_f08.f90'),
          '\n'.join(f08_module(shims, large, ints, handles, hindex, consts)) + '\n')

    b = ['# mpif.h / mpi module: %d generated + %d hand-written'
         % (len(shims), len(HAND_WRITTEN))]
    b.append('# mpi_f08: %d generic MPI_X (and PMPI_X) + MPI_Wtime, MPI_Wtick, MPI_Aint_add, '
             'MPI_Aint_diff' % (len(shims) + len(HAND_F08)))
    b += ['bound %s' % s.name for s in shims]
    b += ['hand %s' % n for n in sorted(HAND_WRITTEN)]
    b += ['skipped %s: %s' % x for x in skipped]
    write(os.path.join(outdir, 'bound.txt'), '\n'.join(b) + '\n')


if __name__ == '__main__':
    main()
