import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import type { Lang, SettlementOrder, SettlementPeriod } from '@app/contract';
import { localTime } from '../../lib/periods';

/**
 * The PDF statement (decision 0040): pdfkit, with Noto Sans Hans (Simplified Chinese, the GB2312
 * set, and Latin) from the @embedpdf/fonts-sc package, so English and Chinese names print alike.
 * pdfkit embeds only the glyphs a document uses: a statement is tens of kilobytes, not the font's
 * 8 MB.
 */
const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('@embedpdf/fonts-sc')), '../fonts');
const REGULAR = path.join(FONT_DIR, 'NotoSansHans-Regular.otf');
const BOLD = path.join(FONT_DIR, 'NotoSansHans-Medium.otf');

const TEXTS = {
  en: {
    title: 'Settlement statement',
    merchant: 'Merchant',
    period: 'Period',
    status: 'Status',
    open: 'Open (figures may still change)',
    closed: 'Closed',
    generated: 'Generated',
    timeZone: 'Time zone',
    totals: 'Totals',
    orders: 'Orders',
    refunds: 'Refunds',
    purchased: 'Purchased tokens',
    refunded: 'Refunded tokens',
    net: 'Net tokens',
    byCompany: 'By company',
    company: 'Company',
    orderLines: 'Orders of the statement',
    orderNo: 'Order no.',
    time: 'Time',
    terminal: 'Terminal',
    staffNo: 'Staff no.',
    employee: 'Employee',
    subtotal: 'Subtotal',
    refundedShort: 'Refunded',
    netShort: 'Net',
    none: 'No orders or refunds in this period.',
    note: 'A purchase counts in the period its order was placed; a refund in the period it was made.',
    page: (n: number, of: number) => `Page ${n} of ${of}`,
  },
  zh: {
    title: '结算单',
    merchant: '商户',
    period: '结算周期',
    status: '状态',
    open: '未结束（数字仍可能变化）',
    closed: '已结束',
    generated: '生成时间',
    timeZone: '时区',
    totals: '合计',
    orders: '订单数',
    refunds: '退款数',
    purchased: '消费代币',
    refunded: '退款代币',
    net: '净额代币',
    byCompany: '按公司',
    company: '公司',
    orderLines: '结算订单明细',
    orderNo: '订单号',
    time: '时间',
    terminal: '终端',
    staffNo: '员工编号',
    employee: '员工',
    subtotal: '小计',
    refundedShort: '退款',
    netShort: '净额',
    none: '本周期没有订单或退款。',
    note: '消费计入下单所在的周期；退款计入退款发生的周期。',
    page: (n: number, of: number) => `第 ${n} 页，共 ${of} 页`,
  },
} as const;

const number = (n: number) => n.toLocaleString('en-US');

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

/** Renders a statement and every one of its orders as a PDF document. */
export function renderSettlementPdf(
  statement: SettlementPeriod,
  orders: SettlementOrder[],
  options: { lang: Lang; timeZone: string; now: Date },
): Promise<Buffer> {
  const t = TEXTS[options.lang];
  const doc = new PDFDocument({
    size: 'A4',
    margin: 36,
    bufferPages: true,
    info: {
      Title: `${t.title} ${statement.merchant_code} ${statement.period_start}`,
      Author: statement.merchant_name,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom - 14;

  /** `text` cut to fit `w` points at the current font and size. */
  function fit(text: string, w: number): string {
    if (doc.widthOfString(text) <= w) return text;
    let cut = text;
    while (cut.length > 1 && doc.widthOfString(`${cut}…`) > w) cut = cut.slice(0, -1);
    return `${cut}…`;
  }

  function row(cells: string[], columns: Column[], y: number, font: 'regular' | 'bold') {
    doc.font(font);
    let x = left;
    cells.forEach((cell, i) => {
      const col = columns[i]!;
      doc.text(fit(cell, col.width - 4), x, y, {
        width: col.width - 4,
        align: col.align ?? 'left',
        lineBreak: false,
      });
      x += col.width;
    });
  }

  /** A table with its header repeated on each new page. */
  function table(columns: Column[], rows: string[][], size: number, boldLast = false) {
    const lineHeight = size * 1.6;
    doc.fontSize(size);
    const header = () => {
      row(
        columns.map((c) => c.title),
        columns,
        doc.y,
        'bold',
      );
      const y = doc.y + lineHeight - size * 0.2;
      doc
        .moveTo(left, y)
        .lineTo(left + width, y)
        .lineWidth(0.5)
        .strokeColor('#888')
        .stroke();
      doc.y = y + size * 0.4;
    };
    header();
    rows.forEach((cells, i) => {
      if (doc.y + lineHeight > bottom()) {
        doc.addPage();
        doc.fontSize(size);
        header();
      }
      const y = doc.y;
      row(cells, columns, y, boldLast && i === rows.length - 1 ? 'bold' : 'regular');
      doc.y = y + lineHeight;
    });
    doc.x = left;
  }

  // The head: merchant, period, status.
  doc.font('bold').fontSize(18).text(t.title, left, doc.y);
  doc.moveDown(0.4);
  doc.fontSize(10);
  const facts: [string, string][] = [
    [t.merchant, `${statement.merchant_name} (${statement.merchant_code})`],
    [t.period, `${statement.period_start} – ${statement.period_end}`],
    [t.status, statement.status === 'closed' ? t.closed : t.open],
    [t.timeZone, options.timeZone],
    [t.generated, localTime(options.now, options.timeZone)],
  ];
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.font('bold').text(label, left, y, { width: 110, lineBreak: false });
    doc.font('regular').text(value, left + 110, y, { width: width - 110 });
  }
  doc.moveDown(0.8);

  // Totals.
  doc.font('bold').fontSize(12).text(t.totals, left);
  doc.moveDown(0.3);
  const totalColumns: Column[] = [
    { title: t.orders, width: width / 5, align: 'right' },
    { title: t.refunds, width: width / 5, align: 'right' },
    { title: t.purchased, width: width / 5, align: 'right' },
    { title: t.refunded, width: width / 5, align: 'right' },
    { title: t.net, width: width / 5, align: 'right' },
  ];
  table(
    totalColumns,
    [
      [
        number(statement.orders),
        number(statement.refunds),
        number(statement.purchased_tokens),
        number(statement.refunded_tokens),
        number(statement.net_tokens),
      ],
    ],
    10,
  );
  doc.moveDown(0.8);

  // The split by company, with its total line.
  doc.font('bold').fontSize(12).text(t.byCompany, left);
  doc.moveDown(0.3);
  const companyColumns: Column[] = [
    { title: t.company, width: width * 0.35 },
    { title: t.orders, width: width * 0.13, align: 'right' },
    { title: t.refunds, width: width * 0.13, align: 'right' },
    { title: t.purchased, width: width * 0.13, align: 'right' },
    { title: t.refunded, width: width * 0.13, align: 'right' },
    { title: t.net, width: width * 0.13, align: 'right' },
  ];
  table(
    companyColumns,
    [
      ...statement.companies.map((c) => [
        `${c.company_name} (${c.company_code})`,
        number(c.orders),
        number(c.refunds),
        number(c.purchased_tokens),
        number(c.refunded_tokens),
        number(c.net_tokens),
      ]),
      [
        t.totals,
        number(statement.orders),
        number(statement.refunds),
        number(statement.purchased_tokens),
        number(statement.refunded_tokens),
        number(statement.net_tokens),
      ],
    ],
    9,
    true,
  );
  doc.moveDown(0.8);

  // Every order.
  doc.font('bold').fontSize(12).text(t.orderLines, left);
  doc.font('regular').fontSize(8).text(t.note, left);
  doc.moveDown(0.3);
  if (orders.length === 0) {
    doc.font('regular').fontSize(10).text(t.none, left);
  } else {
    const orderColumns: Column[] = [
      { title: t.orderNo, width: 70 },
      { title: t.time, width: 78 },
      { title: t.terminal, width: 55 },
      { title: t.company, width: 58 },
      { title: t.staffNo, width: 52 },
      { title: t.employee, width: 66 },
      { title: t.subtotal, width: 48, align: 'right' },
      { title: t.refundedShort, width: 48, align: 'right' },
      { title: t.netShort, width: width - 475, align: 'right' },
    ];
    table(
      orderColumns,
      orders.map((o) => [
        o.order_no,
        localTime(o.ordered_at, options.timeZone),
        o.terminal_code,
        o.company_code,
        o.employee_id,
        o.employee_name ?? '',
        number(o.subtotal),
        number(o.refunded_tokens),
        number(o.net_tokens),
      ]),
      7.5,
    );
  }

  // Page numbers, once the number of pages is known.
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i += 1) {
    doc.switchToPage(range.start + i);
    const y = doc.page.height - doc.page.margins.bottom - 8;
    doc.font('regular').fontSize(8);
    // Below the bottom margin: lift it for the footer so pdfkit adds no page.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.text(
      `${statement.merchant_code} · ${statement.period_start} – ${statement.period_end} · ${t.page(i + 1, range.count)}`,
      left,
      y,
      { width, align: 'center', lineBreak: false },
    );
    doc.page.margins.bottom = margin;
  }
  doc.end();
  return done;
}
