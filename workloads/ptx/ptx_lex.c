/*
 * ptx_lex.c - tokens and numeric literals of PTX text.
 *
 * PTX is line-insensitive: statements end with ';' and whitespace, including
 * newlines, separates tokens.  A word is a run of [A-Za-z0-9_$%.] where "::"
 * may appear inside (".L1::evict_last", ".shared::cta"), so a mnemonic with
 * its modifiers ("ld.global.nc.v4.f32") and a special register ("%tid.x")
 * are single words that the decoder splits on '.'.  A lone ':' ends a label.
 * Comments are // to end of line and C-style blocks.  Strings ("...") appear
 * in .pragma and .file.  Literal syntax follows the PTX ISA manual, section
 * "Constants": decimal, hex (0x), octal (leading 0), binary (0b) integers
 * with an optional U suffix; 0fXXXXXXXX single and 0dXXXXXXXXXXXXXXXX
 * double bit patterns; decimal floating point.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_int.h"

void lex_init(lexer *L, const char *text, size_t len)
{
    L->p = text;
    L->end = text + len;
    L->line = 1;
    L->has_peek = 0;
}

static int is_word(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '%' || c == '.';
}

static tok lex_raw(lexer *L)
{
    tok t = {TK_EOF, L->end, 0, L->line};
    const char *p = L->p, *end = L->end;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == '\f' || *p == '\v' ||
                           *p == 0)) {
            if (*p == '\n')
                L->line++;
            p++;
        }
        if (p + 1 < end && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n')
                    L->line++;
                p++;
            }
            p = p + 1 < end ? p + 2 : end;
            continue;
        }
        break;
    }
    t.line = L->line;
    if (p >= end) {
        L->p = end;
        return t;
    }
    t.s = p;
    if (*p == '"') {
        p++;
        while (p < end && *p != '"' && *p != '\n')
            p++;
        t.kind = TK_STRING;
        t.s++;
        t.len = (int)(p - t.s);
        if (p < end && *p == '"')
            p++;
    } else if (is_word((unsigned char)*p)) {
        while (p < end) {
            if (is_word((unsigned char)*p))
                p++;
            else if (p + 2 < end && p[0] == ':' && p[1] == ':' && is_word((unsigned char)p[2]))
                p += 2;
            else
                break;
        }
        /* decimal exponent: 1.5e+3 */
        if (t.s[0] >= '0' && t.s[0] <= '9' && (p[-1] == 'e' || p[-1] == 'E') && p + 1 < end &&
            (*p == '+' || *p == '-') && p[1] >= '0' && p[1] <= '9' && !(t.s[1] == 'x' || t.s[1] == 'X')) {
            p++;
            while (p < end && *p >= '0' && *p <= '9')
                p++;
        }
        t.kind = TK_WORD;
        t.len = (int)(p - t.s);
    } else {
        t.kind = TK_PUNCT;
        t.len = 1;
        p++;
    }
    L->p = p;
    return t;
}

tok lex_next(lexer *L)
{
    if (L->has_peek) {
        L->has_peek = 0;
        return L->peeked;
    }
    return lex_raw(L);
}

tok lex_peek(lexer *L)
{
    if (!L->has_peek) {
        L->peeked = lex_raw(L);
        L->has_peek = 1;
    }
    return L->peeked;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int lex_number(const char *s, int len, int *form, uint64_t *bits, double *fval)
{
    if (len <= 0 || s[0] < '0' || s[0] > '9')
        return -1;
    if (len > 1 && s[len - 1] == 'U')
        len--;
    if (len >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
        int nd = (s[1] == 'f' || s[1] == 'F') ? 8 : 16;
        if (len != 2 + nd)
            return -1;
        uint64_t v = 0;
        for (int i = 2; i < len; i++) {
            int h = hexval((unsigned char)s[i]);
            if (h < 0)
                return -1;
            v = v << 4 | (uint64_t)h;
        }
        *form = nd == 8 ? LIT_F32 : LIT_F64;
        *bits = v;
        return 0;
    }
    int is_float = 0;
    for (int i = 0; i < len; i++)
        if (s[i] == '.' || ((s[i] == 'e' || s[i] == 'E') && !(len > 1 && (s[1] == 'x' || s[1] == 'X'))))
            is_float = 1;
    if (is_float) {
        char buf[64];
        if (len >= (int)sizeof buf)
            return -1;
        memcpy(buf, s, (size_t)len);
        buf[len] = 0;
        char *endp;
        double d = strtod(buf, &endp);
        if (*endp)
            return -1;
        *form = LIT_DEC_FLOAT;
        *fval = d;
        *bits = 0;
        return 0;
    }
    uint64_t v = 0;
    int base = 10, i = 0;
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, i = 2;
    else if (len > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, i = 2;
    else if (len > 1 && s[0] == '0')
        base = 8, i = 1;
    for (; i < len; i++) {
        int h = hexval((unsigned char)s[i]);
        if (h < 0 || h >= base)
            return -1;
        v = v * (uint64_t)base + (uint64_t)h;
    }
    *form = LIT_INT;
    *bits = v;
    return 0;
}
