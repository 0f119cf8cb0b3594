import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { EmployeeImportPreview, EmployeeImportResult } from '@app/contract';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { buildCompany } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { server } from '@/test/server';
import { PREVIEW_ROW_LIMIT } from './import-employees-dialog';

const CSV = 'employee_id,name,email,status\nE0100,New Person,,active\nE0011,Alice Tan,,\n';

const preview: EmployeeImportPreview = {
  rows: [
    {
      line: 2,
      id: null,
      employee_id: 'E0100',
      email: null,
      name: 'New Person',
      status: 'active',
      action: 'create',
    },
    {
      line: 3,
      id: 11,
      employee_id: 'E0011',
      email: null,
      name: 'Alice Tan',
      status: 'active',
      action: 'override',
    },
    {
      line: 6,
      id: 14,
      employee_id: 'E0014',
      email: null,
      name: 'Dee Koh',
      status: 'active',
      action: 'unchanged',
    },
    {
      line: 4,
      id: 12,
      employee_id: 'E0012',
      email: null,
      name: 'Bob Lim',
      status: 'inactive',
      action: 'deactivate',
    },
    {
      line: 5,
      id: null,
      employee_id: 'E0100',
      email: 'taken@example.com',
      name: null,
      status: 'active',
      action: 'invalid',
      errors: { employee_id: 'v.duplicate_in_file', email: 'EMAIL_EXISTING_IN_OTHER_COMPANY' },
    },
    {
      line: null,
      id: 13,
      employee_id: 'E0013',
      email: null,
      name: 'Carol Ng',
      status: 'active',
      action: 'keep',
    },
  ],
  summary: { create: 1, override: 1, unchanged: 1, deactivate: 1, keep: 1, invalid: 1 },
};

const result: EmployeeImportResult = {
  created: 1,
  updated: 1,
  unchanged: 1,
  deactivated: 1,
  skipped: 1,
  deactivate_missing: false,
  rejected: 1,
  rejected_rows: [
    { line: 5, employee_id: 'E0100', errors: { employee_id: 'v.duplicate_in_file' } },
  ],
};

interface Upload {
  name: string;
  text: string;
  deactivate_missing: unknown;
}

/** Answers a multipart import route, recording the uploaded `file` part and the option. */
function answerUpload(path: string, respond: () => Response): Upload[] {
  const uploads: Upload[] = [];
  server.use(
    http.post(path, async ({ request }) => {
      const form = await request.formData();
      const file = form.get('file');
      // Node's File, not jsdom's: the request body is parsed outside the page.
      if (file && typeof file !== 'string') {
        uploads.push({
          name: file.name,
          text: await file.text(),
          deactivate_missing: form.get('deactivate_missing'),
        });
      }
      return respond();
    }),
  );
  return uploads;
}

async function openImport() {
  const user = signedIn('company_admin', { company_id: 1 });
  const lists = answer('get', '/api/v1/employees', listOf([]));
  answer('get', '/api/v1/companies/1', { data: buildCompany({ id: 1 }) });
  renderApp('/employees?status=active', { user });
  await screen.findByRole('heading', { level: 1, name: 'Employees' });
  await userEvent.click(screen.getByRole('button', { name: 'Import CSV' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'Import employees' }));
  return { dialog, lists };
}

const csvFile = (text: string, name = 'staff.csv') => new File([text], name, { type: 'text/csv' });

describe('the employee CSV import', () => {
  it('previews each row with its mark, imports on confirm and shows what was done', async () => {
    const { dialog, lists } = await openImport();
    const previews = answerUpload('/api/v1/employees/import/preview', () =>
      HttpResponse.json({ data: preview }),
    );
    const imports = answerUpload('/api/v1/employees/import', () =>
      HttpResponse.json({ data: result }),
    );

    await userEvent.upload(dialog.getByLabelText('CSV file'), csvFile(CSV));
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));

    const table = await dialog.findByRole('table', {
      name: 'The rows of the file and what importing does with each',
    });
    expect(previews).toEqual([{ name: 'staff.csv', text: CSV, deactivate_missing: 'false' }]);
    const marks = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(marks).toEqual([
      ['2', 'Will be created', 'E0100', 'New Person', '—', 'Active'],
      ['3', 'Will override', 'E0011', 'Alice Tan', '—', 'Active'],
      ['6', 'No change', 'E0014', 'Dee Koh', '—', 'Active'],
      ['4', 'Will deactivate', 'E0012', 'Bob Lim', '—', 'Inactive'],
      [
        '5',
        'Invalid' +
          'employee_id: This value must appear only once in the file' +
          'email: Email already exists in another company',
        'E0100',
        '—',
        'taken@example.com',
        'Active',
      ],
      ['Not in the file', 'Stays active', 'E0013', 'Carol Ng', '—', 'Active'],
    ]);
    const counts = within(dialog.getByLabelText('Rows by result'));
    expect(counts.getAllByRole('term').map((term) => term.textContent)).toEqual([
      'Will be created',
      'Will override',
      'No change',
      'Will deactivate',
      'Stays active',
      'Invalid',
    ]);
    expect(counts.getAllByRole('definition').map((count) => count.textContent)).toEqual([
      '1',
      '1',
      '1',
      '1',
      '1',
      '1',
    ]);
    // Deactivating the employees missing from the file is an opt-in, off by default.
    expect(
      dialog.getByRole('checkbox', { name: 'Deactivate employees missing from the file (1)' }),
    ).not.toBeChecked();
    const confirm = dialog.getByRole('button', { name: /^Import$/ });
    expect(confirm).toHaveAttribute('data-variant', 'default');

    const listsBefore = lists.length;
    await userEvent.click(confirm);
    // Only the invalid row the preview showed was skipped: a success, with the skip as information.
    const status = await dialog.findByRole('status');
    expect(status).toHaveTextContent('CSV uploaded successfully.1 invalid row skipped');
    expect(status).not.toHaveTextContent(/fail/i);
    expect(await screen.findAllByText('CSV uploaded successfully.')).toHaveLength(2);
    expect(imports).toEqual([{ name: 'staff.csv', text: CSV, deactivate_missing: 'false' }]);
    const outcome = within(dialog.getByLabelText('Import result'));
    expect(outcome.getAllByRole('term').map((term) => term.textContent)).toEqual([
      'Created',
      'Updated',
      'Unchanged',
      'Deactivated',
      'Skipped',
    ]);
    expect(outcome.getAllByRole('definition').map((count) => count.textContent)).toEqual([
      '1',
      '1',
      '1',
      '1',
      '1',
    ]);
    expect(dialog.getByRole('list', { name: 'Skipped rows' })).toHaveTextContent(
      'Line 5 (E0100): employee_id: This value must appear only once in the file',
    );
    await waitFor(() => expect(lists.length).toBeGreaterThan(listsBefore));

    await userEvent.click(dialog.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('deactivates the employees missing from the file only when the box is ticked, saying how many on a destructive button', async () => {
    const { dialog } = await openImport();
    answerUpload('/api/v1/employees/import/preview', () => HttpResponse.json({ data: preview }));
    const imports = answerUpload('/api/v1/employees/import', () =>
      HttpResponse.json({
        data: { ...result, unchanged: 1, deactivated: 2, deactivate_missing: true },
      }),
    );
    await userEvent.upload(dialog.getByLabelText('CSV file'), csvFile(CSV));
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));
    const box = await dialog.findByRole('checkbox', {
      name: 'Deactivate employees missing from the file (1)',
    });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(
      '1 active employee is not in the file; they stay active.',
    );

    // By keyboard: the box takes the focus and Space ticks it.
    box.focus();
    await userEvent.keyboard(' ');
    expect(box).toBeChecked();
    expect(box).toHaveAccessibleDescription(
      '1 employee not in the file will be deactivated by this import.',
    );
    // The row from the file (E0012) and the missing one (E0013): two deactivations.
    const confirm = dialog.getByRole('button', { name: 'Import and deactivate 2' });
    expect(confirm).toHaveAttribute('data-variant', 'destructive');
    expect(dialog.queryByRole('button', { name: /^Import$/ })).not.toBeInTheDocument();
    const missing = within(dialog.getByRole('table'))
      .getAllByRole('row')
      .find((row) => row.textContent.includes('E0013'))!;
    expect(missing).toHaveTextContent('Will deactivate');
    expect(missing).toHaveTextContent('Inactive');
    expect(
      within(dialog.getByLabelText('Rows by result'))
        .getAllByRole('definition')
        .map((count) => count.textContent),
    ).toEqual(['1', '1', '1', '2', '0', '1']);

    // Unticked again, the button is plain once more.
    await userEvent.keyboard(' ');
    expect(dialog.getByRole('button', { name: /^Import$/ })).toHaveAttribute(
      'data-variant',
      'default',
    );
    await userEvent.keyboard(' ');
    await userEvent.click(dialog.getByRole('button', { name: 'Import and deactivate 2' }));
    await dialog.findByRole('status');
    expect(imports).toEqual([{ name: 'staff.csv', text: CSV, deactivate_missing: 'true' }]);
  });

  it('warns only when the import rejected a row the preview did not show as invalid', async () => {
    const { dialog } = await openImport();
    answerUpload('/api/v1/employees/import/preview', () => HttpResponse.json({ data: preview }));
    answerUpload('/api/v1/employees/import', () =>
      HttpResponse.json({
        data: {
          ...result,
          updated: 0,
          skipped: 2,
          rejected: 2,
          rejected_rows: [
            ...result.rejected_rows,
            { line: 3, employee_id: 'E0011', errors: { email: 'EMAIL_EXISTING_IN_THIS_COMPANY' } },
          ],
        },
      }),
    );
    await userEvent.upload(dialog.getByLabelText('CSV file'), csvFile(CSV));
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));
    await userEvent.click(await dialog.findByRole('button', { name: /^Import$/ }));
    expect(await dialog.findByRole('status')).toHaveTextContent(
      'Imported, but 1 row became invalid after the preview and was not imported.',
    );
    expect(dialog.getByRole('list', { name: 'Skipped rows' })).toHaveTextContent('Line 3 (E0011)');
  });

  it('asks for a file, and refuses an empty one without sending it', async () => {
    const { dialog } = await openImport();
    const previews = answerUpload('/api/v1/employees/import/preview', () =>
      HttpResponse.json({ data: preview }),
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));
    expect(dialog.getByLabelText('CSV file')).toHaveAccessibleDescription('Choose a file');

    await userEvent.upload(dialog.getByLabelText('CSV file'), csvFile(''));
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));
    expect(dialog.getByLabelText('CSV file')).toHaveAccessibleDescription(
      'The uploaded file is empty.',
    );
    expect(previews).toEqual([]);
  });

  it('shows why the server refused the file, and keeps the file to try again', async () => {
    const { dialog } = await openImport();
    answerUpload('/api/v1/employees/import/preview', () => errorBody(400, 'FILE_INVALID'));
    await userEvent.upload(dialog.getByLabelText('CSV file'), csvFile('emial\nx\n'));
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));
    await waitFor(() =>
      expect(dialog.getByLabelText('CSV file')).toHaveAccessibleDescription(
        'The file could not be read as a CSV in UTF-8.',
      ),
    );
    expect(dialog.queryByRole('table')).not.toBeInTheDocument();
  });

  it('confirms a clean import with the upload success message', async () => {
    const { dialog } = await openImport();
    const clean: EmployeeImportPreview = {
      rows: preview.rows.slice(0, 1),
      summary: { create: 1, override: 0, unchanged: 0, deactivate: 0, keep: 0, invalid: 0 },
    };
    answerUpload('/api/v1/employees/import/preview', () => HttpResponse.json({ data: clean }));
    answerUpload('/api/v1/employees/import', () =>
      HttpResponse.json({
        data: {
          created: 1,
          updated: 0,
          unchanged: 0,
          deactivated: 0,
          skipped: 0,
          deactivate_missing: false,
          rejected: 0,
          rejected_rows: [],
        },
      }),
    );
    await userEvent.upload(dialog.getByLabelText('CSV file'), csvFile(CSV));
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Import' }));
    // Nobody is missing from the file: no box to tick.
    expect(dialog.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(await dialog.findByRole('status')).toHaveTextContent('CSV uploaded successfully.');
    expect(dialog.getByRole('status')).not.toHaveTextContent(/skipped/);
  });

  it('draws at most 200 rows of a large file, and shows one mark at a time on request', async () => {
    const { dialog } = await openImport();
    const created = Array.from({ length: 250 }, (_, index) => ({
      ...preview.rows[0]!,
      line: index + 2,
      employee_id: `N${String(index).padStart(4, '0')}`,
    }));
    const large: EmployeeImportPreview = {
      rows: [...created, { ...preview.rows[4]!, line: 252 }],
      summary: { create: 250, override: 0, unchanged: 0, deactivate: 0, keep: 0, invalid: 1 },
    };
    answerUpload('/api/v1/employees/import/preview', () => HttpResponse.json({ data: large }));
    await userEvent.upload(dialog.getByLabelText('CSV file'), csvFile(CSV));
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));

    const table = await dialog.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(1 + PREVIEW_ROW_LIMIT);
    expect(
      dialog.getByText('Showing the first 200 of 251 rows; the counts above cover them all.'),
    ).toBeInTheDocument();

    await userEvent.selectOptions(dialog.getByLabelText('Show'), 'Invalid (1)');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('252');
    expect(dialog.queryByText(/Showing the first/)).not.toBeInTheDocument();
  });

  it('does not offer to import a file whose rows are all invalid', async () => {
    const { dialog } = await openImport();
    const invalidOnly: EmployeeImportPreview = {
      rows: preview.rows.slice(4, 5),
      summary: { create: 0, override: 0, unchanged: 0, deactivate: 0, keep: 0, invalid: 1 },
    };
    answerUpload('/api/v1/employees/import/preview', () =>
      HttpResponse.json({ data: invalidOnly }),
    );
    await userEvent.upload(dialog.getByLabelText('CSV file'), csvFile(CSV));
    await userEvent.click(dialog.getByRole('button', { name: 'Preview' }));
    expect(await dialog.findByRole('button', { name: 'Import' })).toBeDisabled();
    await userEvent.click(dialog.getByRole('button', { name: 'Choose another file' }));
    expect(dialog.getByLabelText('CSV file')).toBeInTheDocument();
  });
});
