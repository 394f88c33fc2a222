import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, type DataTableColumn } from "./data-table";
import { Field } from "./field";

type Row = { id: string; name: string };
const columns: DataTableColumn<Row>[] = [
  { id: "name", header: "Name", cell: (r) => r.name, title: (r) => r.name },
  { id: "actions", header: "Actions", srOnlyHeader: true, cell: () => "…" },
];

describe("DataTable", () => {
  it("is a table named by its caption, with column headers and labelled cells", () => {
    const html = renderToStaticMarkup(h(DataTable<Row>, { columns, data: [{ id: "a", name: "Ada" }], caption: "People", rowKey: (r) => r.id }));
    expect(html).toContain('<caption data-slot="table-caption" class="mt-3 text-sm text-muted-foreground sr-only">People</caption>');
    expect(html).toContain('<th data-slot="table-head" class="h-10 whitespace-nowrap px-3 text-left align-middle font-medium text-muted-foreground" scope="col">Name</th>');
    expect(html).toContain('<span class="sr-only">Actions</span>');
    expect(html).toMatch(/<td[^>]*data-label="Name"[^>]*title="Ada"[^>]*>Ada<\/td>/);
    expect(html).toMatch(/<td[^>]*data-label=""[^>]*>…<\/td>/);
  });

  it("says `empty` in a row of its own, and leaves the labels out when rows are not cards", () => {
    const empty = renderToStaticMarkup(h(DataTable<Row>, { columns, data: [], caption: "People", rowKey: (r) => r.id, empty: "Nobody yet." }));
    expect(empty).toMatch(/<td[^>]*colSpan="2">Nobody yet\.<\/td>/);
    const plain = renderToStaticMarkup(h(DataTable<Row>, { columns, data: [{ id: "a", name: "Ada" }], caption: "People", rowKey: (r) => r.id, cards: false }));
    expect(plain).not.toContain("data-label");
  });
});

describe("Field", () => {
  it("ties the control to its description and error", () => {
    const html = renderToStaticMarkup(h(Field, { id: "q", label: "Search", description: "An order id.", error: ["Too long", "Not text"], children: (p) => h("input", { ...p, name: "q" }) }));
    expect(html).toContain('<label data-slot="label" class="text-sm font-medium leading-none" for="q">Search</label>');
    expect(html).toContain('<input id="q" aria-describedby="q-hint q-error" aria-invalid="true" name="q"/>');
    expect(html).toContain('<p id="q-hint" class="text-xs text-muted-foreground">An order id.</p>');
    expect(html).toContain('<p id="q-error" class="text-xs text-destructive">Too long; Not text</p>');
  });

  it("describes nothing and is valid without a description or an error", () => {
    const html = renderToStaticMarkup(h(Field, { id: "q", label: "Search", children: (p) => h("input", { ...p, name: "q" }) }));
    expect(html).toContain('<input id="q" name="q"/>');
  });
});
