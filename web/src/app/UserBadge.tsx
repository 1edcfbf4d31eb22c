import { Tag } from '@blueprintjs/core';
import { initials, roleLabels } from '@/lib/roles';

export interface UserBadgeProps {
  name: string;
  roles: readonly string[];
}

/** Connected-user badge: initials (two letters at most), name and role. */
export function UserBadge({ name, roles }: UserBadgeProps) {
  const labels = roleLabels(roles);
  return (
    <div className="user-badge" data-testid="user-badge">
      <span className="user-initials" aria-hidden="true" data-testid="user-initials">
        {initials(name)}
      </span>
      <div className="user-info">
        <span className="user-name" data-testid="user-name">
          {name}
        </span>
        <span className="user-roles" data-testid="user-role">
          {labels.map((label) => (
            <Tag key={label} minimal round className="user-role-tag">
              {label}
            </Tag>
          ))}
        </span>
      </div>
    </div>
  );
}
