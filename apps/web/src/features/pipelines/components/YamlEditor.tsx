import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { basicSetup } from 'codemirror';
import { yaml } from '@codemirror/lang-yaml';
import { indentUnit } from '@codemirror/language';
import { Annotation, Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { indentWithTab } from '@codemirror/commands';

export type YamlEditorHandle = {
  /** Inserts text at the cursor (at the start of the next line when the cursor sits mid-line) and focuses the editor. */
  insertAtCursor: (text: string) => void;
  /** Replaces the whole document (loading a spec). */
  setValue: (text: string) => void;
};

/** Marks documents loaded by code, so they are not reported as user edits. */
const programmatic = Annotation.define<boolean>();

const theme = EditorView.theme({
  '&': { fontSize: '13px', height: '100%', backgroundColor: 'var(--mantine-color-body)' },
  '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)', lineHeight: '1.6' },
  '.cm-gutters': { backgroundColor: 'var(--mantine-color-gray-0)', borderRight: '1px solid var(--mantine-color-gray-3)', color: 'var(--mantine-color-gray-5)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--mantine-color-indigo-0)' },
  '.cm-activeLine': { backgroundColor: 'rgba(99, 102, 241, 0.04)' },
  '&.cm-focused': { outline: 'none' },
  '&.cm-editor.cm-readonly .cm-content': { opacity: 0.85 },
});

/** A CodeMirror 6 YAML editor, tab size 2 (spec §9). Uncontrolled: `initialValue` loads once, changes go to `onChange`. */
export const YamlEditor = forwardRef<YamlEditorHandle, { initialValue: string; readOnly: boolean; onChange: (text: string) => void; minHeight?: number }>(
  function YamlEditor({ initialValue, readOnly, onChange, minHeight = 480 }, ref) {
    const host = useRef<HTMLDivElement>(null);
    const view = useRef<EditorView | null>(null);
    const editable = useRef(new Compartment());
    const onChangeRef = useRef(onChange);
    onChangeRef.current = onChange;

    useEffect(() => {
      if (!host.current) return;
      const v = new EditorView({
        parent: host.current,
        state: EditorState.create({
          doc: initialValue,
          extensions: [
            basicSetup,
            keymap.of([indentWithTab]),
            yaml(),
            EditorState.tabSize.of(2),
            indentUnit.of('  '),
            theme,
            editable.current.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
            EditorView.updateListener.of((u) => {
              if (u.docChanged && !u.transactions.some((t) => t.annotation(programmatic))) onChangeRef.current(u.state.doc.toString());
            }),
            EditorView.contentAttributes.of({ 'aria-label': 'Pipeline spec', 'data-testid': 'spec-editor-content' }),
          ],
        }),
      });
      view.current = v;
      return () => {
        v.destroy();
        view.current = null;
      };
      // The document loads once; later values come from the user.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, []);

    useEffect(() => {
      view.current?.dispatch({ effects: editable.current.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]) });
      view.current?.dom.classList.toggle('cm-readonly', readOnly);
    }, [readOnly]);

    useImperativeHandle(ref, () => ({
      insertAtCursor(text: string) {
        const v = view.current;
        if (!v) return;
        const { from } = v.state.selection.main;
        const line = v.state.doc.lineAt(from);
        // Mid-line: go to the start of the next line so the snippet keeps its indentation.
        const midLine = from > line.from && line.text.trim() !== '';
        const at = midLine ? line.to : line.from;
        const insert = midLine ? `\n${text}` : text;
        v.dispatch({
          changes: { from: at, to: midLine ? at : line.text.trim() === '' ? line.to : at, insert },
          selection: { anchor: at + insert.length },
          scrollIntoView: true,
        });
        v.focus();
      },
      setValue(text: string) {
        const v = view.current;
        if (!v) return;
        v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text }, annotations: programmatic.of(true) });
      },
    }));

    return <div ref={host} style={{ minHeight, height: '100%' }} data-testid="spec-editor" />;
  },
);
