// Sortable tables: click a column head to sort by it (again to reverse). Columns marked
// data-type="number" sort numerically ("-" last).
"use strict";
window.arenaTables = {
  init(root) {
    for (const table of root.querySelectorAll("table.sortable")) {
      table.querySelectorAll("thead th").forEach((th, column) => {
        th.addEventListener("click", () => window.arenaTables.sort(table, column, th));
      });
    }
  },
  sort(table, column, th) {
    const numeric = th.dataset.type === "number";
    const ascending = th.dataset.order !== "asc";
    table.querySelectorAll("thead th").forEach((h) => delete h.dataset.order);
    th.dataset.order = ascending ? "asc" : "desc";
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const key = (row) => {
      const text = row.cells[column].textContent.trim();
      if (!numeric) return text.toLowerCase();
      const value = parseFloat(text);
      return Number.isNaN(value) ? Infinity : value;
    };
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      const order = x < y ? -1 : x > y ? 1 : 0;
      return ascending ? order : -order;
    });
    rows.forEach((row) => body.appendChild(row));
  },
};
window.arenaTables.init(document);
