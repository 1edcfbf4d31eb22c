package api

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"oportuna/internal/respond"
	"oportuna/store"
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
	q := store.New(s.DB)
	unread, err := q.UnreadNotifications(r.Context(), store.UnreadNotificationsParams{UserID: c.Subject, Brand: c.Brand})
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	rows, err := q.Notifications(r.Context(), store.NotificationsParams{UserID: c.Subject, Brand: c.Brand, MaxRows: limit})
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	list := make([]notificationRow, len(rows))
	for i, n := range rows {
		list[i] = notificationRow{ID: n.ID, Kind: n.Kind, Title: n.Title, Link: n.Link, CreatedAt: n.CreatedAt, ReadAt: n.ReadAt}
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
	n, err := store.New(s.DB).ReadNotification(r.Context(), store.ReadNotificationParams{ID: id, UserID: c.Subject, Brand: c.Brand})
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	if n == 0 {
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
	n, err := store.New(s.DB).ReadAllNotifications(r.Context(), store.ReadAllNotificationsParams{UserID: c.Subject, Brand: c.Brand})
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	respond.JSON(w, http.StatusOK, map[string]any{"message": MsgAllRead, "updated": n})
}
