import { makeDocx, makePdf } from "../tests/http/documents";
import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * Documents in and out (docs/documents.md): a PDF and a DOCX made by the test are uploaded
 * with the run view's file picker, summarized by the offline model after the write is
 * approved, and the summary holds points of the uploaded files; the originals and the zip
 * download; a file whose content is refused says why in words.
 */
test.describe("documents in the run view", () => {
  test.beforeEach(async ({ page }) => {
    await new SignInPage(page).signIn();
    await expect(page).toHaveURL(/\/flows$/);
  });

  test("upload a PDF and a DOCX, summarize each, download them back", async ({ page, consoleErrors }) => {
    test.setTimeout(180_000);
    // The refused upload at the end answers 415, as it should.
    consoleErrors.allow(/status of 415 .*\/files\)$/);
    const pdf = Buffer.from(await makePdf(["Contract between Acme Corp and Globex.", "The license fee is 48000 EUR per year.", "Either party may end the contract with 90 days notice."]));
    const docx = Buffer.from(await makeDocx(["Revenue grew 18 percent in the third quarter.", "The Berlin office opens in November."]));
    const flows = new FlowsPage(page);
    await flows.newFromTemplate();
    await flows.startRun("What files do I have?");
    const run = new RunPage(page);
    await run.waitForStatus("completed");

    await run.uploadFiles([
      { name: "contract.pdf", mimeType: "application/pdf", buffer: pdf },
      { name: "q3.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: docx },
    ]);
    await expect(page.getByTestId("ws-file-contract.pdf")).toBeVisible();
    await expect(page.getByTestId("ws-file-q3.docx")).toBeVisible();

    await run.send("Summarize contract.pdf into summary.md");
    await run.waitForStatus("awaiting approval");
    await run.approvalCard().getByTestId("approve").click();
    await run.waitForStatus("completed");
    const summary = await run.openWorkspaceFile("summary.md");
    expect(summary).toContain("48000 EUR");
    expect(summary).toContain("Acme Corp and Globex");

    await run.send("Summarize q3.docx into q3-summary.md");
    await run.waitForStatus("awaiting approval");
    await run.approvalCard().getByTestId("approve").click();
    await run.waitForStatus("completed");
    // The open file's view changes when the new file's content arrives: wait for it.
    await page.getByTestId("ws-file-q3-summary.md").click();
    await expect(page.getByTestId("ws-file-content")).toContainText("Revenue grew 18 percent");

    // The original downloads as it was uploaded; the zip link is there.
    const href = await page.getByTestId("ws-download-contract.pdf").getAttribute("href");
    const original = await page.request.get(href ?? "");
    expect(original.headers()["content-type"]).toBe("application/pdf");
    expect(Buffer.from(await original.body()).equals(pdf)).toBe(true);
    const zip = await page.request.get((await page.getByTestId("ws-download-zip").getAttribute("href")) ?? "");
    expect(zip.headers()["content-type"]).toBe("application/zip");

    // A program renamed to .pdf is refused, in words.
    await page
      .getByTestId("ws-upload-input")
      .setInputFiles([{ name: "report.pdf", mimeType: "application/pdf", buffer: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]) }]);
    await expect(page.getByTestId("ws-error")).toContainText("application/x-elf");
    await expect(page.getByTestId("ws-file-report.pdf")).toHaveCount(0);
  });
});
