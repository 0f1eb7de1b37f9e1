"""Makes corpus documents with ReportLab (PDF), python-docx (DOCX) and openpyxl (XLSX).

Run by the corpus generator (render-python.ts builds the jobs) with Debian's python3:

    /usr/bin/python3 python-producers.py jobs.json

Each job names its producer, its output file and either a producer-neutral layout (text, columns,
label/value pairs, tables, rules, spaces; see model.ts) with a look, or (openpyxl) the sheet's
cells. Nothing here decides content: the generator wrote it and knows the ground truth.
"""

import json
import sys
from xml.sax.saxutils import escape

FONT_FILES = {
    "DejaVuSans": ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                   "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    "DejaVuSerif": ("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
                    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf"),
    "DejaVuSansCondensed": ("/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
                            "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf"),
    "LiberationSerif": ("/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
                        "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf"),
}
STANDARD_BOLD = {"Helvetica": "Helvetica-Bold", "Times-Roman": "Times-Bold", "Courier": "Courier-Bold"}


# ----------------------------------------------------------------------------- ReportLab

def reportlab_fonts(name, layout):
    """The regular and bold font names, registering a TTF when the look asks for one."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if name in STANDARD_BOLD and not encodable(layout):
        name = "DejaVuSans"  # the standard 14 fonts draw WinAnsi only
    if name in STANDARD_BOLD:
        return name, STANDARD_BOLD[name]
    regular, bold = FONT_FILES[name]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, regular))
        pdfmetrics.registerFont(TTFont(name + "-Bold", bold))
    return name, name + "-Bold"


def texts(e):
    kind = e["kind"]
    if kind == "text":
        yield from e["lines"]
    elif kind == "columns":
        for col in e["columns"]:
            for c in col:
                yield from texts(c)
    elif kind == "pairs":
        for label, value in e["pairs"]:
            yield label
            yield value
    elif kind == "table":
        yield from e["header"]
        for row in e["rows"]:
            yield from row


def encodable(layout):
    try:
        for e in layout["body"]:
            for t in texts(e):
                t.encode("cp1252")
        for t in layout.get("running") or []:
            t.encode("cp1252")
        return True
    except UnicodeEncodeError:
        return False


def pair_options(e, base):
    """A pairs element's size, alignment, bold labels and mode."""
    return (e.get("style") or {}).get("size") or base, e.get("align") or "left", e.get("boldLabels", False), e["mode"]


def page_label(style, n, total):
    if style == "page-of":
        return f"Page {n} of {total}"
    if style == "page":
        return f"Page {n}"
    if style == "slash":
        return f"{n} / {total}"
    return None


def numbered_canvas(job, regular):
    """A canvas that draws page numbers and the running letterhead once the page count is known."""
    from reportlab.pdfgen import canvas

    layout, page = job["layout"], job["page"]
    size = layout["size"]

    class Numbered(canvas.Canvas):
        def __init__(self, *args, **kwargs):
            canvas.Canvas.__init__(self, *args, **kwargs)
            self._pages = []

        def showPage(self):
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._pages)
            for state in self._pages:
                self.__dict__.update(state)
                n = self._pageNumber
                label = page_label(layout["pageNumbers"], n, total)
                self.setFont(regular, size - 1)
                self.setFillGray(0)
                if label:
                    self.drawRightString(page["width"] - page["margin"], page["margin"] * 0.5, label)
                if n > 1 and layout.get("running"):
                    self.setFillGray(0.3)
                    y = page["height"] - page["margin"] * 0.55
                    for line in layout["running"]:
                        self.drawString(page["margin"], y, line)
                        y -= size
                canvas.Canvas.showPage(self)
            canvas.Canvas.save(self)

    return Numbered


def platypus(job):
    """The layout as flowables: Paragraphs, Tables (also for columns and pairs), Spacers."""
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
    from reportlab.platypus.flowables import HRFlowable

    layout, page, look = job["layout"], job["page"], job["look"]
    regular, bold = reportlab_fonts(look["font"], layout)
    base = layout["size"]
    aligns = {"left": TA_LEFT, "right": TA_RIGHT, "center": TA_CENTER}
    styles = {}

    def pstyle(size=None, is_bold=False, align="left", muted=False):
        size = size or base
        key = (size, is_bold, align, muted)
        if key not in styles:
            styles[key] = ParagraphStyle(
                f"s{len(styles)}", fontName=bold if is_bold else regular, fontSize=size,
                leading=size * look["leading"], alignment=aligns[align],
                textColor=colors.Color(0.33, 0.33, 0.33) if muted else colors.black)
        return styles[key]

    def para(text, **kw):
        return Paragraph(escape(text), pstyle(**kw))

    def grid_style(rows, shade_first_col=False, shade_first_row=False):
        cmds = [("GRID", (0, 0), (-1, -1), 0.5, colors.Color(0.27, 0.27, 0.27)),
                ("VALIGN", (0, 0), (-1, -1), "TOP")]
        if shade_first_col:
            cmds.append(("BACKGROUND", (0, 0), (0, rows - 1), colors.Color(0.93, 0.93, 0.93)))
        if shade_first_row:
            cmds.append(("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.93, 0.93, 0.93)))
        return TableStyle(cmds + padding())

    def padding():
        p = look["padding"]
        return [("LEFTPADDING", (0, 0), (-1, -1), p), ("RIGHTPADDING", (0, 0), (-1, -1), p),
                ("TOPPADDING", (0, 0), (-1, -1), p / 2), ("BOTTOMPADDING", (0, 0), (-1, -1), p / 2)]

    def flow(e, width):
        kind = e["kind"]
        if kind == "text":
            s = e.get("style") or {}
            kw = dict(size=s.get("size"), is_bold=s.get("bold", False), align=s.get("align", "left"),
                      muted=s.get("muted", False))
            if s.get("italic"):
                return [Paragraph("<br/>".join(f"<i>{escape(l)}</i>" for l in e["lines"]), pstyle(**kw))]
            return [Paragraph("<br/>".join(escape(l) for l in e["lines"]), pstyle(**kw))]
        if kind == "space":
            return [Spacer(1, e["lines"] * base * look["leading"])]
        if kind == "rule":
            return [HRFlowable(width="100%", thickness=0.7, color=colors.Color(0.27, 0.27, 0.27),
                               spaceBefore=3, spaceAfter=3)]
        if kind == "columns":
            widths = [w * width for w in e["widths"]]
            cells = [[f for c in col for f in flow(c, widths[i] - 8)] for i, col in enumerate(e["columns"])]
            t = Table([cells], colWidths=widths)
            t.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                                   ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                   ("RIGHTPADDING", (0, 0), (-1, -1), 8)]))
            return [t]
        if kind == "pairs":
            size, align, lb, mode = pair_options(e, base)
            if mode == "colon":
                lines = [(f"<b>{escape(l)}:</b> " if lb else f"{escape(l)}: ") + escape(v) for l, v in e["pairs"]]
                return [Paragraph("<br/>".join(lines), pstyle(size=size, align=align))]
            if mode == "tab":
                data = [[para(l, size=size, is_bold=lb), para(v, size=size, align=align)] for l, v in e["pairs"]]
                label_w = min(width * 0.5, max(len(l) for l, _ in e["pairs"]) * size * 0.55 + 14)
                value_w = (width - label_w) if align == "right" else min(width - label_w, width * 0.45)
                t = Table(data, colWidths=[label_w, value_w], hAlign="RIGHT" if align == "right" else "LEFT")
                t.setStyle(TableStyle(padding()))
                return [t]
            if mode == "stacked":
                out = []
                for l, v in e["pairs"]:
                    out.append(para(l, size=size * 0.85, align=align, muted=True))
                    out.append(para(v, size=size, is_bold=not lb, align=align))
                    out.append(Spacer(1, 3))
                return out
            if mode == "grid":
                data = [[para(l, size=size, is_bold=True), para(v, size=size)] for l, v in e["pairs"]]
                t = Table(data, colWidths=[width * 0.4, width * 0.6])
                t.setStyle(grid_style(len(data), shade_first_col=True))
                return [t]
            if mode == "across":
                data = [[para(l, size=size, is_bold=True) for l, _ in e["pairs"]],
                        [para(v, size=size) for _, v in e["pairs"]]]
                t = Table(data, colWidths=[width / len(e["pairs"])] * len(e["pairs"]))
                t.setStyle(grid_style(2, shade_first_row=True))
                return [t]
        if kind == "table":
            s = e.get("style") or {}
            size = s.get("size") or base
            al = e["align"]
            data = [[para(h, size=size, is_bold=True, align=al[i]) for i, h in enumerate(e["header"])]]
            data += [[para(c, size=size, align=al[i]) for i, c in enumerate(row)] for row in e["rows"]]
            t = Table(data, colWidths=[w * width for w in e["widths"]], repeatRows=1)
            cmds = [("VALIGN", (0, 0), (-1, -1), "TOP")] + padding()
            rules = e["rules"]
            if rules == "header":
                cmds.append(("LINEBELOW", (0, 0), (-1, 0), 1.2, colors.black))
            elif rules == "grid":
                cmds += [("GRID", (0, 0), (-1, -1), 0.5, colors.Color(0.2, 0.2, 0.2)),
                         ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.93, 0.93, 0.93))]
            elif rules == "shaded":
                cmds += [("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.85, 0.85, 0.85)),
                         ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.Color(0.95, 0.95, 0.95)])]
            t.setStyle(TableStyle(cmds))
            return [t]
        return []

    width = page["width"] - 2 * page["margin"]
    story = [f for e in layout["body"] for f in flow(e, width)]
    top = page["margin"] + (base * (len(layout.get("running") or []) + 1) if layout.get("running") else 0)
    doc = SimpleDocTemplate(job["out"], pagesize=(page["width"], page["height"]),
                            leftMargin=page["margin"], rightMargin=page["margin"],
                            topMargin=top, bottomMargin=page["margin"],
                            title="document", author="corpus")
    doc.build(story, canvasmaker=numbered_canvas(job, regular))


def canvas_drawing(job):
    """The layout drawn line by line with drawString and lines: a hand-made layout engine."""
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfbase.pdfmetrics import stringWidth

    layout, page, look = job["layout"], job["page"], job["look"]
    regular, bold = reportlab_fonts(look["font"], layout)
    base = layout["size"]
    lead = look["leading"]
    pad = look["padding"]
    W, H, M = page["width"], page["height"], page["margin"]
    c = numbered_canvas(job, regular)(job["out"], pagesize=(W, H))
    c.setTitle("document")
    running = layout.get("running") or []
    state = {"y": H - M}

    def new_page():
        c.showPage()
        state["y"] = H - M - (base * (len(running) + 1) if running else 0)

    def need(h):
        if state["y"] - h < M + base:
            new_page()

    def draw(x, w, text, font, size, align="left", gray=0, spacing=0):
        c.setFont(font, size)
        c.setFillGray(gray)
        y = state["y"] - size
        if align == "right":
            tw = stringWidth(text, font, size) + spacing * len(text)
            c.drawString(x + w - tw, y, text, charSpace=spacing)
        elif align == "center":
            tw = stringWidth(text, font, size) + spacing * len(text)
            c.drawString(x + (w - tw) / 2, y, text, charSpace=spacing)
        else:
            c.drawString(x, y, text, charSpace=spacing)

    def wrapped(text, font, size, w):
        return simpleSplit(text, font, size, max(w, size * 2)) or [""]

    def text_lines(x, w, lines, font, size, align="left", gray=0, spacing=0):
        for line in lines:
            for part in wrapped(line, font, size, w):
                need(size * lead)
                draw(x, w, part, font, size, align, gray, spacing)
                state["y"] -= size * lead

    def ruled_rows(x, widths, rows, size, fonts, aligns, rules, header_rows=1):
        """Rows of cells with column `widths`; a row whose cells wrap is as high as its tallest."""
        def row_height(cells):
            return max(len(wrapped(t, fonts[i], size, widths[i] - 2 * pad)) for i, t in enumerate(cells)) * size * lead + pad

        header = rows[:header_rows]
        for n, cells in enumerate(rows):
            h = row_height(cells)
            if state["y"] - h < M + base:
                new_page()
                if n >= header_rows:
                    for hc in header:
                        one_row(x, widths, hc, size, [bold] * len(hc), aligns, rules, True, 0, row_height(hc))
            one_row(x, widths, cells, size, fonts if n >= header_rows else [bold] * len(cells), aligns, rules,
                    n < header_rows, n, h)

    def one_row(x, widths, cells, size, fonts, aligns, rules, head, n, h):
        top = state["y"]
        if rules == "shaded" and (head or n % 2 == 0):
            c.setFillGray(0.85 if head else 0.95)
            c.rect(x, top - h, sum(widths), h, stroke=0, fill=1)
        if rules == "grid" and head:
            c.setFillGray(0.93)
            c.rect(x, top - h, sum(widths), h, stroke=0, fill=1)
        cx = x
        for i, t in enumerate(cells):
            state["y"] = top - pad / 2
            for part in wrapped(t, fonts[i], size, widths[i] - 2 * pad):
                draw(cx + pad, widths[i] - 2 * pad, part, fonts[i], size, aligns[i])
                state["y"] -= size * lead
            if rules == "grid":
                c.setStrokeGray(0.2)
                c.setLineWidth(0.5)
                c.rect(cx, top - h, widths[i], h, stroke=1, fill=0)
            cx += widths[i]
        if rules == "header" and head:
            c.setLineWidth(1.2)
            c.setStrokeGray(0)
            c.line(x, top - h, x + sum(widths), top - h)
        state["y"] = top - h

    def element(e, x, w):
        kind = e["kind"]
        if kind == "text":
            s = e.get("style") or {}
            font = bold if s.get("bold") else regular
            text_lines(x, w, e["lines"], font, s.get("size") or base, s.get("align", "left"),
                       0.33 if s.get("muted") else 0, s.get("spacing", 0))
        elif kind == "space":
            state["y"] -= e["lines"] * base * lead
        elif kind == "rule":
            need(6)
            state["y"] -= 3
            c.setLineWidth(0.7)
            c.setStrokeGray(0.27)
            c.line(x, state["y"], x + w, state["y"])
            state["y"] -= 3
        elif kind == "columns":
            top = state["y"]
            lowest = top
            cx = x
            for i, col in enumerate(e["columns"]):
                cw = e["widths"][i] * w
                state["y"] = top
                for child in col:
                    element(child, cx, cw - 8)
                lowest = min(lowest, state["y"])
                cx += cw
            state["y"] = lowest
        elif kind == "pairs":
            size, align, lb, mode = pair_options(e, base)
            lfont = bold if lb else regular
            if mode == "colon":
                for l, v in e["pairs"]:
                    need(size * lead)
                    label = l + ": "
                    lw = stringWidth(label, lfont, size)
                    vw = stringWidth(v, regular, size)
                    start = x + w - lw - vw if align == "right" else x + (w - lw - vw) / 2 if align == "center" else x
                    draw(start, lw, label, lfont, size)
                    draw(start + lw, vw, v, regular, size)
                    state["y"] -= size * lead
            elif mode == "tab":
                label_w = max(stringWidth(l, lfont, size) for l, _ in e["pairs"]) + 14
                for l, v in e["pairs"]:
                    need(size * lead)
                    draw(x, label_w, l, lfont, size)
                    if align == "right":
                        draw(x + label_w, w - label_w, v, regular, size, "right")
                    else:
                        draw(x + label_w, w - label_w, v, regular, size)
                    state["y"] -= size * lead
            elif mode == "stacked":
                for l, v in e["pairs"]:
                    text_lines(x, w, [l], regular, size * 0.85, align, 0.33)
                    text_lines(x, w, [v], regular if e.get("boldLabels") else bold, size, align)
                    state["y"] -= 3
            elif mode == "grid":
                ruled_rows(x, [w * 0.4, w * 0.6], [[l, v] for l, v in e["pairs"]], size,
                           [bold, regular], ["left", "left"], "grid", header_rows=0)
            elif mode == "across":
                n = len(e["pairs"])
                ruled_rows(x, [w / n] * n, [[l for l, _ in e["pairs"]], [v for _, v in e["pairs"]]], size,
                           [regular] * n, ["left"] * n, "grid")
        elif kind == "table":
            s = e.get("style") or {}
            size = s.get("size") or base
            widths = [f * w for f in e["widths"]]
            ruled_rows(x, widths, [e["header"]] + e["rows"], size, [regular] * len(widths), e["align"], e["rules"])

    for e in layout["body"]:
        element(e, M, W - 2 * M)
    c.showPage()
    c.save()


# ----------------------------------------------------------------------------- python-docx

def docx(job):
    from docx import Document
    from docx.enum.table import WD_TABLE_ALIGNMENT
    from docx.enum.text import WD_ALIGN_PARAGRAPH, WD_BREAK, WD_TAB_ALIGNMENT
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn
    from docx.shared import Pt, RGBColor

    layout, page, look = job["layout"], job["page"], job["look"]
    base = layout["size"]
    d = Document()
    sec = d.sections[0]
    sec.page_width, sec.page_height = Pt(page["width"]), Pt(page["height"])
    for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
        setattr(sec, side, Pt(page["margin"]))
    normal = d.styles["Normal"]
    normal.font.name = look["font"]
    normal.font.size = Pt(base)
    normal.paragraph_format.space_after = Pt(0)
    aligns = {"left": WD_ALIGN_PARAGRAPH.LEFT, "right": WD_ALIGN_PARAGRAPH.RIGHT,
              "center": WD_ALIGN_PARAGRAPH.CENTER}
    width = page["width"] - 2 * page["margin"]

    class Box:
        """Where paragraphs and tables go: the body or a table cell (whose first paragraph exists)."""

        def __init__(self, target, fresh):
            self.target, self.fresh = target, fresh

        def paragraph(self, style=None):
            if self.fresh:
                self.fresh = False
                p = self.target.paragraphs[0]
                if style:
                    p.style = style
                return p
            return self.target.add_paragraph(style=style)

        def table(self, rows, cols):
            self.fresh = False
            if hasattr(self.target, "add_table") and self.target is d:
                return d.add_table(rows=rows, cols=cols)
            return self.target.add_table(rows, cols)

    def run(p, text, size=None, is_bold=False, italic=False, muted=False):
        r = p.add_run(text)
        if size and size != base:
            r.font.size = Pt(size)
        if is_bold:
            r.bold = True
        if italic:
            r.italic = True
        if muted:
            r.font.color.rgb = RGBColor(0x55, 0x55, 0x55)
        return r

    def bottom_border(p):
        ppr = p._p.get_or_add_pPr()
        bdr = OxmlElement("w:pBdr")
        bottom = OxmlElement("w:bottom")
        for k, v in (("w:val", "single"), ("w:sz", "6"), ("w:space", "1"), ("w:color", "444444")):
            bottom.set(qn(k), v)
        bdr.append(bottom)
        ppr.append(bdr)

    def fill(table, rows, style=None, bold_first_row=False, bold_first_col=False, aligns_=None, size=None,
             widths=None):
        if style:
            table.style = d.styles[style]
        for r, cells in enumerate(rows):
            for i, text in enumerate(cells):
                cell = table.cell(r, i)
                p = cell.paragraphs[0]
                run(p, text, size, (bold_first_row and r == 0) or (bold_first_col and i == 0))
                if aligns_:
                    p.alignment = aligns[aligns_[i]]
                if widths:
                    cell.width = Pt(widths[i])

    def element(box, e, w):
        kind = e["kind"]
        if kind == "text":
            s = e.get("style") or {}
            size = s.get("size") or base
            if look["headings"] and s.get("bold") and size >= 14:
                for line in e["lines"]:
                    if box.target is d:
                        h = d.add_heading(line, level=1)
                    else:
                        h = box.paragraph("Heading 1")
                        h.add_run(line)
                    h.alignment = aligns[s.get("align", "left")]
                return
            if look["lines"] == "breaks":
                p = box.paragraph()
                p.alignment = aligns[s.get("align", "left")]
                for n, line in enumerate(e["lines"]):
                    r = run(p, line, size, s.get("bold"), s.get("italic"), s.get("muted"))
                    if n < len(e["lines"]) - 1:
                        r.add_break(WD_BREAK.LINE)
            else:
                for line in e["lines"]:
                    p = box.paragraph()
                    p.alignment = aligns[s.get("align", "left")]
                    run(p, line, size, s.get("bold"), s.get("italic"), s.get("muted"))
        elif kind == "space":
            for _ in range(e["lines"]):
                box.paragraph()
        elif kind == "rule":
            bottom_border(box.paragraph())
        elif kind == "columns":
            t = box.table(1, len(e["columns"]))
            t.autofit = False
            for i, col in enumerate(e["columns"]):
                cell = t.cell(0, i)
                cell.width = Pt(e["widths"][i] * w)
                inner = Box(cell, True)
                for child in col:
                    element(inner, child, e["widths"][i] * w)
        elif kind == "pairs":
            size, align, lb, mode = pair_options(e, base)
            if mode == "colon":
                for l, v in e["pairs"]:
                    p = box.paragraph()
                    p.alignment = aligns[align]
                    run(p, l + ":", size, lb)
                    run(p, " " + v, size)
            elif mode == "tab" and look["tabPairs"] == "tabstop":
                label_w = max(len(l) for l, _ in e["pairs"]) * size * 0.6 + 12
                for l, v in e["pairs"]:
                    p = box.paragraph()
                    stop = Pt(w) if align == "right" else Pt(label_w)
                    p.paragraph_format.tab_stops.add_tab_stop(
                        stop, WD_TAB_ALIGNMENT.RIGHT if align == "right" else WD_TAB_ALIGNMENT.LEFT)
                    run(p, l, size, lb)
                    run(p, "\t" + v, size)
            elif mode == "tab":
                t = box.table(len(e["pairs"]), 2)
                fill(t, e["pairs"], None, False, lb, ["left", align], size)
            elif mode == "stacked":
                for l, v in e["pairs"]:
                    p = box.paragraph()
                    p.alignment = aligns[align]
                    run(p, l, size * 0.85, muted=True)
                    p = box.paragraph()
                    p.alignment = aligns[align]
                    run(p, v, size, not lb)
            elif mode == "grid":
                t = box.table(len(e["pairs"]), 2)
                fill(t, e["pairs"], "Table Grid", False, True, None, size)
            elif mode == "across":
                t = box.table(2, len(e["pairs"]))
                fill(t, [[l for l, _ in e["pairs"]], [v for _, v in e["pairs"]]], "Table Grid", True, False,
                     None, size)
        elif kind == "table":
            s = e.get("style") or {}
            size = s.get("size") or base
            t = box.table(1 + len(e["rows"]), len(e["header"]))
            style = look["tableStyle"] if e["rules"] != "none" else None
            fill(t, [e["header"]] + e["rows"], style, True, False, e["align"], size,
                 [f * w for f in e["widths"]])
            t.alignment = WD_TABLE_ALIGNMENT.LEFT
        else:
            raise ValueError(f"unknown element {kind}")

    body = Box(d, False)
    for e in layout["body"]:
        element(body, e, width)
    # Running letterhead from the second page on, page numbers in the footer.
    if layout.get("running"):
        sec.different_first_page_header_footer = True
        hp = sec.header.paragraphs[0]
        for n, line in enumerate(layout["running"]):
            r = run(hp, line, base - 1, muted=True)
            if n < len(layout["running"]) - 1:
                r.add_break(WD_BREAK.LINE)
    label = {"page-of": ["Page ", "PAGE", " of ", "NUMPAGES"], "page": ["Page ", "PAGE"],
             "slash": ["PAGE", " / ", "NUMPAGES"]}.get(layout["pageNumbers"])
    if label:
        footers = [sec.footer] + ([sec.first_page_footer] if layout.get("running") else [])
        for footer in footers:
            fp = footer.paragraphs[0]
            fp.alignment = WD_ALIGN_PARAGRAPH.RIGHT
            for part in label:
                if part in ("PAGE", "NUMPAGES"):
                    fld = OxmlElement("w:fldSimple")
                    fld.set(qn("w:instr"), part)
                    r = OxmlElement("w:r")
                    t = OxmlElement("w:t")
                    t.text = "1"
                    r.append(t)
                    fld.append(r)
                    fp._p.append(fld)
                else:
                    run(fp, part, base - 1)
    d.core_properties.title = "document"
    d.save(job["out"])


# ----------------------------------------------------------------------------- openpyxl

def xlsx(job):
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
    from openpyxl.utils import get_column_letter

    look = job["look"]
    wb = Workbook()
    ws = wb.active
    ws.title = look["sheetTitle"]
    thin = Side(style="thin", color="444444")
    for r, row in enumerate(job["rows"], start=1):
        for i, cell in enumerate(row, start=1):
            if cell is None:
                continue
            if "formula" in cell and cell["formula"]:
                value = cell["formula"]
            elif "number" in cell and cell["number"] is not None:
                value = cell["number"]
            else:
                value = cell.get("text") or None
            target = ws.cell(row=r, column=i, value=value)
            target.font = Font(name=look["font"], bold=cell.get("bold", False), size=cell.get("size") or 10)
            if cell.get("format"):
                target.number_format = cell["format"]
            if cell.get("align"):
                target.alignment = Alignment(horizontal=cell["align"])
            if cell.get("border") == "grid":
                target.border = Border(left=thin, right=thin, top=thin, bottom=thin)
            elif cell.get("border") == "below":
                target.border = Border(bottom=thin)
            if cell.get("shade"):
                target.fill = PatternFill("solid", fgColor="EEEEEE")
    for i, w in enumerate(job["widths"], start=1):
        ws.column_dimensions[get_column_letter(i)].width = w
    wb.save(job["out"])


def report(job):
    """A long report by ReportLab's platypus: numbered headings, justified paragraphs, ruled tables."""
    from reportlab.lib import colors
    from reportlab.lib.enums import TA_JUSTIFY
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    page, look = job["page"], job["look"]
    regular, bold = reportlab_fonts(look["font"], {"body": [], "running": []})
    size = look["size"]
    body = ParagraphStyle("body", fontName=regular, fontSize=size, leading=size * 1.3,
                          alignment=TA_JUSTIFY, spaceAfter=size * 0.6)
    heading = ParagraphStyle("heading", fontName=bold, fontSize=size * 1.4, leading=size * 1.8,
                             spaceBefore=size, spaceAfter=size * 0.5)
    story = []
    for section in job["sections"]:
        story.append(Paragraph(escape(section["heading"]), heading))
        for text in section["paragraphs"]:
            story.append(Paragraph(escape(text), body))
        if section.get("table"):
            t = section["table"]
            data = [t["header"]] + t["rows"]
            table = Table(data, repeatRows=1)
            table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.grey),
                                       ("FONTNAME", (0, 0), (-1, 0), bold),
                                       ("FONTNAME", (0, 1), (-1, -1), regular),
                                       ("FONTSIZE", (0, 0), (-1, -1), size - 1),
                                       ("ALIGN", (1, 1), (-1, -1), "RIGHT")]))
            story += [table, Spacer(1, size)]
    job = {**job, "layout": {"size": size, "pageNumbers": "page-of", "running": [job["title"]]}}
    doc = SimpleDocTemplate(job["out"], pagesize=(page["width"], page["height"]),
                            leftMargin=page["margin"], rightMargin=page["margin"],
                            topMargin=page["margin"] + 2 * size, bottomMargin=page["margin"],
                            title=job["title"], author="corpus")
    doc.build(story, canvasmaker=numbered_canvas(job, regular))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = json.load(f)
    for job in jobs:
        try:
            if job["producer"] == "reportlab":
                (platypus if job["look"]["drawing"] == "platypus" else canvas_drawing)(job)
            elif job["producer"] == "python-docx":
                docx(job)
            elif job["producer"] == "openpyxl":
                xlsx(job)
            elif job["producer"] == "report":
                report(job)
            else:
                raise ValueError(f"unknown producer {job['producer']}")
        except Exception as error:
            raise SystemExit(f"{job['out']}: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
