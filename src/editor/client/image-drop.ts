/**
 * An image dropped on or pasted into the editor becomes a Markdown image with a data: URI: it
 * travels with the document, counts against the plan's resource budget (the service measures
 * it) and needs no upload anywhere.
 */
import { EditorView } from '@codemirror/view';

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|svg\+xml)$/;

export function imageDrop(onRefused: (message: string) => void): ReturnType<typeof EditorView.domEventHandlers> {
  const insert = (view: EditorView, files: readonly File[], at: number): boolean => {
    const images = files.filter((file) => IMAGE_TYPES.test(file.type));
    if (images.length === 0) {
      if (files.length > 0) onRefused('Only PNG, JPEG, GIF, WebP and SVG images can be dropped in.');
      return false;
    }
    void Promise.all(images.map(dataUri)).then((uris) => {
      const text = uris.map((uri, index) => `![${altText(images[index]!.name)}](${uri})`).join('\n\n');
      view.dispatch({ changes: { from: at, insert: `\n${text}\n` }, selection: { anchor: at + text.length + 2 } });
    });
    return true;
  };
  return EditorView.domEventHandlers({
    drop(event, view) {
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length === 0) return false;
      event.preventDefault();
      const at = view.posAtCoords({ x: event.clientX, y: event.clientY }) ?? view.state.selection.main.head;
      return insert(view, files, view.state.doc.lineAt(at).to);
    },
    paste(event, view) {
      const files = [...(event.clipboardData?.files ?? [])];
      if (files.length === 0) return false;
      event.preventDefault();
      return insert(view, files, view.state.selection.main.head);
    },
  });
}

function dataUri(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the image could not be read'));
    reader.readAsDataURL(file);
  });
}

function altText(name: string): string {
  return name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '') || 'image';
}
