// The workspace bar over the tiles: which workspace is shown (a list to switch), and what can be done with it —
// add a tile, a new workspace, rename (in place), duplicate, delete. Alt+1…9 switch too.
import { useState, type KeyboardEvent } from 'react';
import { TILES_MAX, WORKSPACE_NAME_MAX, WORKSPACES_MAX } from '../../../../shared/workspaces';
import {
  activeWorkspace,
  deleteActiveWorkspace,
  duplicateActiveWorkspace,
  newWorkspace,
  openTile,
  renameActiveWorkspace,
  switchWorkspace,
  useWorkspaces,
} from '../../store/workspaces';
import { nameProblem } from '../../model/tile-layout';

export function WorkspaceBar() {
  const names = useWorkspaces((s) => s.list.map((w) => w.name).join('\n'));
  const active = useWorkspaces((s) => s.active);
  const tiles = useWorkspaces((s) => activeWorkspace(s).tiles.length);
  const count = useWorkspaces((s) => s.list.length);
  const [renaming, setRenaming] = useState<string | null>(null);
  const problem = renaming === null ? null : nameProblem(useWorkspaces.getState(), active, renaming);

  const onRenameKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && renaming !== null && problem === null) {
      renameActiveWorkspace(renaming);
      setRenaming(null);
    } else if (event.key === 'Escape') {
      event.stopPropagation();
      setRenaming(null);
    }
  };

  return (
    <div className="workspace-bar" data-testid="workspace-bar">
      {renaming === null ? (
        <select
          aria-label="Workspace"
          data-testid="workspace-choice"
          value={active}
          onChange={(e) => switchWorkspace(Number(e.target.value))}
        >
          {names.split('\n').map((name, i) => (
            <option key={`${i}:${name}`} value={i}>
              {i < 9 ? `${name}  (Alt+${i + 1})` : name}
            </option>
          ))}
        </select>
      ) : (
        <input
          aria-label="Workspace name"
          data-testid="workspace-name"
          autoFocus
          maxLength={WORKSPACE_NAME_MAX}
          value={renaming}
          aria-invalid={problem !== null}
          title={problem ?? 'Enter keeps the name, Esc leaves it as it was'}
          onChange={(e) => setRenaming(e.target.value)}
          onKeyDown={onRenameKey}
          onBlur={() => setRenaming(null)}
        />
      )}
      {problem ? (
        <span className="error-text" role="alert" data-testid="workspace-name-problem">
          {problem}
        </span>
      ) : null}
      <button
        type="button"
        data-testid="tile-add"
        disabled={tiles >= TILES_MAX}
        title={
          tiles >= TILES_MAX
            ? `At most ${TILES_MAX} tiles`
            : 'A new tile beside this one: the next market you pick opens in it'
        }
        onClick={openTile}
      >
        + Tile
      </button>
      <span className="workspace-actions">
        <button type="button" data-testid="workspace-new" disabled={count >= WORKSPACES_MAX} onClick={newWorkspace}>
          New
        </button>
        <button
          type="button"
          data-testid="workspace-rename"
          onClick={() => setRenaming(names.split('\n')[active] ?? '')}
        >
          Rename
        </button>
        <button
          type="button"
          data-testid="workspace-duplicate"
          disabled={count >= WORKSPACES_MAX}
          onClick={duplicateActiveWorkspace}
        >
          Duplicate
        </button>
        <button
          type="button"
          data-testid="workspace-delete"
          disabled={count <= 1}
          title={count <= 1 ? 'The last workspace stays' : 'Delete this workspace'}
          onClick={deleteActiveWorkspace}
        >
          Delete
        </button>
      </span>
    </div>
  );
}
