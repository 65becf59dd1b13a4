// The site's wheels unpacked by the browser rather than by Python: each file is inflated with
// the browser's own DecompressionStream while the WebAssembly module compiles, and written into
// site-packages before Python starts (loadPyodide's fsInit), so that no Python time goes to
// unzipping. It reads the plain zip files kowah site writes (stored or deflated, no zip64);
// anything else is refused with a clear error. Used by the Worker (worker.js).

const CENTRAL = 0x02014b50;
const END = 0x06054b50;

async function inflated(data, size) {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  if (bytes.length !== size) throw new Error("a wheel's file has the wrong size");
  return bytes;
}

// The files of the wheel in *buffer* (an ArrayBuffer): [{ name, bytes }], directories left out.
export async function wheelFiles(buffer, label = "wheel") {
  const view = new DataView(buffer);
  let end = buffer.byteLength - 22;
  while (end >= 0 && view.getUint32(end, true) !== END) end--;
  if (end < 0) throw new Error(`${label}: not a zip file`);
  const decoder = new TextDecoder();
  const files = [];
  let at = view.getUint32(end + 16, true);
  for (let count = view.getUint16(end + 10, true); count > 0; count--) {
    if (view.getUint32(at, true) !== CENTRAL) throw new Error(`${label}: a broken zip directory`);
    const method = view.getUint16(at + 10, true);
    const [stored, size] = [view.getUint32(at + 20, true), view.getUint32(at + 24, true)];
    const nameLength = view.getUint16(at + 28, true);
    const name = decoder.decode(new Uint8Array(buffer, at + 46, nameLength));
    const local = view.getUint32(at + 42, true);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.endsWith("/")) continue;
    if (name.startsWith("/") || name.split("/").includes("..")) throw new Error(`${label}: a file outside the wheel`);
    const data = new Uint8Array(buffer, local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true),
      stored);
    if (method === 0) files.push({ name, bytes: data });
    else if (method === 8) files.push({ name, bytes: inflated(data, size) });
    else throw new Error(`${label}: ${name} is compressed in a way this site does not read (${method})`);
  }
  return Promise.all(files.map(async ({ name, bytes }) => ({ name, bytes: await bytes })));
}

// Write *files* ([{ name, bytes }]) into the folder *where* of Pyodide's file system *FS*.
export function writeFiles(FS, where, files) {
  for (const { name, bytes } of files) {
    const path = `${where}/${name}`;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, bytes);
  }
}
