package api

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5"

	"oportuna/internal/respond"
)

// Notification bounds and answers.
const (
	DefaultNotifications = 20
	MaxNotifications     = 100
	MsgNotificationRead  = "Notificação marcada como lida."
	MsgAllRead           = "Notificações marcadas como lidas."
	MsgNoNotification    = "Notificação não encontrada."
)

// notificationRow is one entry of the bell's dropdown.
type notificationRow struct {
	ID        int64      `json:"id"`
	Kind      string     `json:"kind"`
	Title     string     `json:"title"`
	Link      string     `json:"link"`
	CreatedAt time.Time  `json:"createdAt"`
	ReadAt    *time.Time `json:"readAt"`
}

// handleNotifications is GET /notifications?limit=: the caller's newest notices
// at the token's brand and how many are unread.
func (s *Server) handleNotifications(w http.ResponseWriter, r *http.Request) {
	p, ok := s.partnerOf(w, r)
	if !ok {
		return
	}
	c := p.Claims
	limit := DefaultNotifications
	if v := strings.TrimSpace(r.URL.Query().Get("limit")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxNotifications {
			respond.Error(w, http.StatusBadRequest, "Parâmetro limit inválido: use de 1 a "+strconv.Itoa(MaxNotifications)+".")
			return
		}
		limit = n
	}
	var unread int
	if err := s.DB.QueryRow(r.Context(), `SELECT count(*) FROM notifications WHERE user_id = $1::uuid AND brand = $2 AND read_at IS NULL`,
		c.Subject, c.Brand).Scan(&unread); err != nil {
		respond.Internal(w, r, err)
		return
	}
	rows, _ := s.DB.Query(r.Context(), `SELECT id, kind, title, link, created_at, read_at FROM notifications
		WHERE user_id = $1::uuid AND brand = $2 ORDER BY created_at DESC, id DESC LIMIT $3`, c.Subject, c.Brand, limit)
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[notificationRow])
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	if list == nil {
		list = []notificationRow{}
	}
	respond.JSON(w, http.StatusOK, map[string]any{"result": list, "unread": unread})
}

// handleReadNotification is PATCH /notifications/{id}/read: one of the caller's notices.
func (s *Server) handleReadNotification(w http.ResponseWriter, r *http.Request) {
	p, ok := s.partnerOf(w, r)
	if !ok {
		return
	}
	c := p.Claims
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil || id < 1 {
		respond.Error(w, http.StatusNotFound, MsgNoNotification)
		return
	}
	tag, err := s.DB.Exec(r.Context(), `UPDATE notifications SET read_at = COALESCE(read_at, now())
		WHERE id = $1 AND user_id = $2::uuid AND brand = $3`, id, c.Subject, c.Brand)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	if tag.RowsAffected() == 0 {
		respond.Error(w, http.StatusNotFound, MsgNoNotification)
		return
	}
	respond.JSON(w, http.StatusOK, respond.Message{Message: MsgNotificationRead})
}

// handleReadAllNotifications is PATCH /notifications/read-all: every unread
// notice of the caller at the token's brand.
func (s *Server) handleReadAllNotifications(w http.ResponseWriter, r *http.Request) {
	p, ok := s.partnerOf(w, r)
	if !ok {
		return
	}
	c := p.Claims
	tag, err := s.DB.Exec(r.Context(), `UPDATE notifications SET read_at = now()
		WHERE user_id = $1::uuid AND brand = $2 AND read_at IS NULL`, c.Subject, c.Brand)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"message": MsgAllRead, "updated": tag.RowsAffected()})
}
